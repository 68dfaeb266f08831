/// The words apps and tools share (conversion windows, coarse values, tracking authorization, the sleeper), kept
/// in their own module so that an app links them without the tools' declarations: every tool-side module sees
/// them through SkanCore as before.
@_exported public import SkanVocabulary

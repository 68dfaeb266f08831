/// Judges the text of `NSUserTrackingUsageDescription` as App Review reads it, in any language: it must say what
/// the data is used for (App Review Guidelines 5.1.1; "Explain the purpose ... clearly and completely"), and it
/// must not pressure the user (5.1.1(iv): apps may not require tracking to work, nor reward it).
///
/// The judgement works on meaning, not on spaces: a text is measured in words where the script spaces its words,
/// and in characters, two to a word, where it does not (Chinese, Japanese, Thai), so that a full Chinese sentence
/// is not "one word". It then looks for phrases that promise only a better experience, and for phrases that
/// threaten or reward, in English, Chinese, Japanese, Korean, French, German, Spanish and Portuguese. A vague
/// phrase next to a stated purpose (ads, measurement, campaigns) is no finding.
enum UsageDescription {
    /// What is wrong with a description.
    enum Problem: Equatable {
        /// A placeholder word (`tbd`, `lorem`, `fixme`, ...).
        case placeholder
        /// Too short to say anything, or promising only a better experience without a purpose.
        case vague
        /// Threatens that the app will not work, or rewards allowing.
        case coercive(phrase: String)
    }

    /// Placeholder words App Review rejects in a usage description.
    static let placeholders: Set<String> = ["todo", "tbd", "fixme", "lorem", "placeholder", "description", "xxx"]

    /// Phrases that promise an experience and say nothing of the data's use.
    static let vaguePhrases = [
        "improve your experience", "improve the experience", "improve user experience", "enhance your experience",
        "better experience", "personalized experience", "personalised experience", "improve our services",
        "improve our app", "improve the app", "better service", "personalize your experience",
        "personalise your experience", "personalize the experience", "améliorer votre expérience",
        "meilleure expérience",
        "erfahrung zu verbessern", "erlebnis zu verbessern", "besseres erlebnis", "mejorar tu experiencia",
        "mejorar su experiencia", "mejor experiencia", "melhorar sua experiência", "melhorar a sua experiência",
        "melhor experiência", "更好的服务", "更好的服務", "使用体验", "使用體驗", "提升您的体验", "改善您的体验", "提升体验", "改善体验", "更好的体验", "提升您的體驗",
        "更好的體驗",
        "体験を向上", "より良い体験", "エクスペリエンスを向上", "경험을 개선", "더 나은 경험",
    ]

    /// Words that name a purpose the data serves: advertising and its measurement.
    static let purposeStems = [
        "advert", "marketing", "campaign", "measur", "attribut", "promot", "publicit", "annonce", "campagne",
        "mesur", "werbung", "anzeige", "kampagne", "messen", "messung", "publicidad", "anuncio", "campaña", "medir",
        "publicidade", "anúncio", "campanha", "广告", "廣告", "推广", "推廣", "投放", "渠道", "衡量", "統計", "统计", "広告", "計測",
        "効果測定", "キャンペーン", "광고", "측정", "캠페인",
    ]
    /// Purpose words short enough to need a whole-word match.
    static let purposeWords: Set<String> = ["ad", "ads", "pub", "pubs"]

    /// Phrases that make allowing the price of using the app, or reward it.
    static let coercivePhrases = [
        "will not be able to use", "won't be able to use", "not be able to use", "cannot use the app",
        "can't use the app", "must allow", "must accept", "have to allow", "need to allow", "required to use",
        "will not work", "won't work", "only works if", "unlock", "in exchange for", "reward you",
        "vous ne pourrez pas", "devez autoriser", "ne fonctionnera pas", "nicht nutzen können",
        "nicht verwenden können", "müssen zustimmen", "funktioniert nicht", "no podrás usar", "no podrá usar",
        "debes permitir", "no funcionará", "não poderá usar", "não conseguirá usar", "deve permitir",
        "否则无法使用", "否则将无法", "必须允许", "才能使用", "無法使用", "无法使用", "許可しないと", "使用できません", "利用できません",
        "사용할 수 없", "허용해야",
    ]

    /// The first problem of `text`, or nil when it states a purpose plainly.
    static func problem(of text: String) -> Problem? {
        let lowered = text.lowercased()
        let words = lowered.split { !$0.isLetter && !$0.isNumber }.map(String.init)
        if words.contains(where: placeholders.contains) { return .placeholder }
        if let phrase = coercivePhrases.first(where: lowered.contains) { return .coercive(phrase: phrase) }
        if length(of: lowered) < 4 { return .vague }
        let statesPurpose =
            words.contains(where: purposeWords.contains) || purposeStems.contains(where: lowered.contains)
        if !statesPurpose, vaguePhrases.contains(where: lowered.contains) { return .vague }
        return nil
    }

    /// The length in words: a word of a spaced script counts one, a character of an unspaced one a half.
    static func length(of text: String) -> Double {
        var length = 0.0
        var inWord = false
        for character in text {
            if isUnspaced(character) {
                length += 0.5
                inWord = false
            } else if character.isLetter || character.isNumber {
                if !inWord { length += 1 }
                inWord = true
            } else {
                inWord = false
            }
        }
        return length
    }

    /// Whether `character` belongs to a script written without spaces between words: Han, kana, Thai, Lao,
    /// Khmer, Myanmar.
    static func isUnspaced(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first, character.isLetter else { return false }
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F:
            return true
        case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF:
            return true
        default:
            return false
        }
    }
}

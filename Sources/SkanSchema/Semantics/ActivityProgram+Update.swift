import SkanCore

extension ActivityProgram {
    /// One change to a running activity since its last evaluation.
    public enum Change: Hashable, Sendable {
        /// The event at this index in the schema was logged (at the evaluation's hour or before).
        case logged(event: Int)
        /// The app set the field at this index.
        case set(field: Int)
        /// Only time moved.
        case time
    }

    /// An evaluation kept for the next: its answer at the hour's window, and what an update after one change
    /// reads instead of deriving again (each field's code, the stretch of time the hour lay in).
    public struct Evaluation: Sendable {
        /// The answer at the hour the evaluation was made, for that hour's window.
        public fileprivate(set) var answer: Answer
        fileprivate var codes: Codes = (0, 0, 0, 0, 0, 0)
        fileprivate var stretch: ActivityDependencies.Stretch

        fileprivate init(answer: Answer, stretch: ActivityDependencies.Stretch) {
            self.answer = answer
            self.stretch = stretch
        }
    }

    /// The evaluation of what `running` holds at `hour`, in the hour's window: `evaluate(_:at:)`, kept for
    /// `update(_:_:at:after:)`.
    public func evaluation(_ running: RunningActivity, at hour: Double) -> Evaluation {
        let slot = windowSlot(at: hour)
        var evaluation = Evaluation(
            answer: Answer(fineValue: 0, window: nil, coarseValue: nil, sends: false, lock: false),
            stretch: dependencies.stretch(at: hour))
        evaluation.answer = evaluate(
            running, at: hour, window: window(at: hour, slot: slot), slot: slot, codes: &evaluation.codes)
        return evaluation
    }

    /// Brings `evaluation` up to `hour` after one `change` to `running`, giving what `evaluation(_:at:)` gives:
    /// only the steps that read what changed are derived again (and those that read a code that changed), and
    /// the window's coarse rules only when something they read changed. An app evaluates after every event it
    /// logs, and most events reach one or two fields.
    public func update(
        _ evaluation: inout Evaluation, _ running: RunningActivity, at hour: Double, after change: Change
    ) {
        var dirtySteps: UInt64 = 0
        var dirtyWindows: UInt8 = 0
        switch change {
        case .logged(let event) where dependencies.stepsReadingEvent.indices.contains(event):
            dirtySteps = dependencies.stepsReadingEvent[event]
            dirtyWindows = dependencies.windowsReadingEvent[event]
        case .set(let field) where steps.indices.contains(field):
            dirtySteps = 1 << field
        case .time:
            break
        default:
            // A change the schema cannot have (an event or field it lacks) leaves nothing to reuse.
            evaluation = self.evaluation(running, at: hour)
            return
        }
        guard dependencies.applies else {
            evaluation = self.evaluation(running, at: hour)
            return
        }
        if !dependencies.holds(evaluation.stretch, hour) {
            dirtySteps |= dependencies.stepsReadingHours
            dirtyWindows = .max
            evaluation.stretch = dependencies.stretch(at: hour)
        }
        let slot = windowSlot(at: hour)
        let window = window(at: hour, slot: slot)
        let (steps, windows) = (dirtySteps, dirtyWindows)
        withUnsafeMutableBytes(of: &evaluation.codes) { codes in
            let codes = codes.baseAddress!.assumingMemoryBound(to: Int.self)
            withStorage(running, at: hour, slot: slot, codes: codes) { storage in
                update(&evaluation.answer, storage, window: window, dirtySteps: steps, dirtyWindows: windows)
            }
        }
    }

    @inline(__always)
    private func update(
        _ answer: inout Answer, _ storage: Storage, window: ConversionWindow?, dirtySteps: UInt64, dirtyWindows: UInt8
    ) {
        var dirty = dirtySteps
        var changed: UInt64 = 0
        // Lowest field first: a field's code is read only by fields after it, which join `dirty` as it changes.
        while dirty != 0 {
            let index = dirty.trailingZeroBitCount
            dirty &= dirty - 1
            let code = code(ofStep: index, storage)
            guard code != storage.codes[index] else { continue }
            storage.codes[index] = code
            changed |= 1 << index
            dirty |= dependencies.stepsReadingField[index]
        }
        if changed != 0 { answer.fineValue = fineValue(storage.codes) }
        let slot = window?.postbackSequenceIndex ?? 0
        if window != answer.window || dirtyWindows & (1 << slot) != 0
            || changed & dependencies.fieldsReadByWindow[slot] != 0
        {
            answer.window = window
            decideCoarseValue(&answer, storage)
        }
    }
}

import Dispatch

/// Runs the three stages over a ring of batch slots without rounds or barriers: every worker thread takes
/// whatever work is ready, in this order of preference: merge the oldest batch once it is decoded (only
/// one thread merges, in input order); fill the next free slot from the input (only one thread fills,
/// in input order); decode the oldest filled batch. A thread waits only when none of these is possible.
/// With one thread, the same loop runs every stage in turn and never waits.
final class BatchPipeline {
    private enum State { case free, filled, decoding, decoded }

    private let slots: [PostbackReader.Slot]
    private let input: BatchInput
    private let merger: PostbackMerger
    private var states: [State]
    private let lock = ConditionLock()

    // Batch sequence numbers; batch n lives in slot n % slots.count. Guarded by `lock`.
    private var nextFill = 0
    private var nextDecode = 0
    private var nextMerge = 0
    private var filling = false
    private var merging = false
    private var inputEnded = false

    init(slots: [PostbackReader.Slot], input: BatchInput, merger: PostbackMerger) {
        self.slots = slots
        self.input = input
        self.merger = merger
        states = Array(repeating: .free, count: slots.count)
    }

    /// Runs until the input has ended and every batch read is merged.
    func run(threads: Int) {
        if threads == 1 {
            work()
        } else {
            let pipeline = UncheckedSendable(self)
            DispatchQueue.concurrentPerform(iterations: threads) { _ in pipeline.value.work() }
        }
    }

    private enum Task {
        case merge(Int)
        case fill(Int)
        case decode(Int)
        case done
    }

    /// Picks the next task and marks it taken; waits while there is none. Called with the lock held.
    private func nextTask() -> Task {
        while true {
            if !merging, nextMerge < nextFill, states[nextMerge % slots.count] == .decoded {
                merging = true
                return .merge(nextMerge % slots.count)
            }
            if !filling, !inputEnded, nextFill - nextMerge < slots.count {
                filling = true
                return .fill(nextFill % slots.count)
            }
            if nextDecode < nextFill {
                states[nextDecode % slots.count] = .decoding
                nextDecode += 1
                return .decode((nextDecode - 1) % slots.count)
            }
            if inputEnded, !filling, nextMerge == nextFill { return .done }
            lock.wait()
        }
    }

    private func work() {
        lock.acquire()
        defer { lock.release() }
        while true {
            let task = nextTask()
            lock.release()
            switch task {
            case .done:
                lock.acquire()
                lock.wakeAll()
                return
            case .merge(let slot):
                merger.merge(slots[slot].decoded)
                lock.acquire()
                states[slot] = .free
                nextMerge += 1
                merging = false
            case .fill(let slot):
                let filled = input.fill(slots[slot])
                lock.acquire()
                if filled {
                    states[slot] = .filled
                    nextFill += 1
                }
                inputEnded = input.atEnd
                filling = false
            case .decode(let slot):
                slots[slot].decoder.decode(slots[slot].batch, into: slots[slot].decoded)
                lock.acquire()
                states[slot] = .decoded
            }
            lock.wakeAll()
        }
    }
}

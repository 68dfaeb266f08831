import Foundation
import SkanCrypto

// Verifications per second on one core, for Benchmarks/signatures.py. The cases file holds one line per
// signature: DER public key, message, DER signature (hex). When every line has the same key (as postbacks
// signed by Apple do), the key gets its table first, as skanc does with Apple's keys.
// usage: signature-benchmark CASES_FILE [ROUNDS]
let arguments = CommandLine.arguments
guard arguments.count >= 2, let text = try? String(contentsOfFile: arguments[1], encoding: .utf8) else {
    FileHandle.standardError.write(Data("usage: signature-benchmark CASES_FILE [ROUNDS]\n".utf8))
    exit(64)
}
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 3 : 3

func bytes(_ hex: Substring) -> [UInt8] {
    var result: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        result.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
    }
    return result
}

let lines = text.split(separator: "\n").map { $0.split(separator: " ") }
let oneKey = Set(lines.map { $0[0] }).count == 1
let shared = oneKey ? ECDSAPublicKey(der: bytes(lines[0][0]))?.withTable() : nil
let cases = lines.map { parts in
    (
        key: shared ?? ECDSAPublicKey(der: bytes(parts[0]))!, message: bytes(parts[1]),
        signature: bytes(parts[2])
    )
}
var best = Double.infinity
var valid = 0
for _ in 0..<rounds {
    let start = Date()
    valid = cases.filter { $0.key.isValidSignature(der: $0.signature, for: $0.message) }.count
    best = min(best, Date().timeIntervalSince(start))
}
let rate = Int(Double(cases.count) / best)
print("skanc: \(cases.count) verifications in \(String(format: "%.3f", best)) s, \(rate) per second, \(valid) valid")

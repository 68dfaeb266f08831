// libFuzzer target: any bytes as a `skanc report --cost` file. `CostTable` either refuses them with a message
// (at a line inside the file, when it names one) or reads rows that keep their promises: one currency ISO 4217
// lists, digit campaigns, days written as reports write them, one row per network, campaign and day, every
// spend at the table's one scale and never negative. Reading the same text again gives the same table.
import FuzzSupport
import SkanCore
import SkanReports

/// One input; a crash, leak or failed check is a finding.
func fuzzCost(_ input: UnsafeRawBufferPointer) -> Int32 {
    let text = String(decoding: Array(input), as: UTF8.self)
    let table: CostTable
    do {
        table = try CostTable(csv: text)
    } catch {
        guard !error.message.isEmpty else { fatalError("a cost file refused without a word") }
        let lines = text.utf8.count { $0 == 10 } + 1
        if let line = error.line, !(1...lines).contains(line) {
            fatalError("an error at line \(line) of a text of \(lines) lines: \(error.message)")
        }
        return 0
    }
    guard !table.rows.isEmpty, CurrencyMinorUnits.isListed(table.currency) else {
        fatalError("a table without rows or with currency \(table.currency)")
    }
    let scale = table.rows[0].spend.scale
    var keys: Set<[String]> = []
    for row in table.rows {
        guard row.spend.scale == scale, row.spend.units >= 0 else { fatalError("a spend off scale: \(row)") }
        guard (1...4).contains(row.campaign.utf8.count), row.campaign.utf8.allSatisfy({ (0x30...0x39).contains($0) })
        else { fatalError("a campaign that is not digits: \(row)") }
        guard row.day.utf8.count == 10, !row.network.isEmpty else { fatalError("a row without its key: \(row)") }
        guard keys.insert([row.network, row.campaign, row.day]).inserted else { fatalError("a key twice: \(row)") }
    }
    guard let again = try? CostTable(csv: text), again.rows == table.rows, again.currency == table.currency else {
        fatalError("the same file read twice gives two tables")
    }
    return 0
}

runLibFuzzer { data, count in fuzzCost(fuzzInput(data, count)) }

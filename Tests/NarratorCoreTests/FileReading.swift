import Foundation

func readFile(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}

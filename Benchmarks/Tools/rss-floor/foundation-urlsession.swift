// RSS floor probe: Swift with Foundation, FoundationNetworking (URLSession) and JSONDecoder. See scripts/rss-floor.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
let s = URLSession(configuration: .ephemeral)
let d = try! JSONDecoder().decode([Int].self, from: Data("[1,2]".utf8))
print(d, s)
print(try! String(contentsOfFile: "/proc/self/status", encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("VmRSS") || $0.hasPrefix("RssAnon") || $0.hasPrefix("RssFile") }.joined(separator: " "))

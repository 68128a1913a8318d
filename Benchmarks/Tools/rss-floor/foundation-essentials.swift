// RSS floor probe: Swift with FoundationEssentials only (JSONDecoder, no URLSession). See scripts/rss-floor.
import FoundationEssentials
let d = try! JSONDecoder().decode([Int].self, from: Data("[1,2]".utf8))
print(d)
import Glibc
let f = fopen("/proc/self/status", "r"); var line = [CChar](repeating: 0, count: 256)
while fgets(&line, 256, f) != nil { let s = String(cString: line); if s.hasPrefix("VmRSS") || s.hasPrefix("RssAnon") || s.hasPrefix("RssFile") { print(s, terminator: "") } }

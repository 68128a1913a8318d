import Glibc

/// What the kernel says of previewd's own memory.
enum ProcessMemory {
    /// Anonymous resident bytes (the `Anonymous:` line of /proc/self/smaps_rollup: heap, thread
    /// stacks, private mappings), the figure that grows when something is retained; nil when unreadable.
    static func anonymousBytes() -> Int? {
        guard let file = fopen("/proc/self/smaps_rollup", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(cString: line)
            guard text.hasPrefix("Anonymous:") else { continue }
            return text.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}

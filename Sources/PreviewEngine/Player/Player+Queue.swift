import PreviewCore

/// Editing the queue: clear, remove, move. The core follows the current track to its new index and
/// chooses the neighbours again.
extension Player {
    func clear() throws {
        lastSearch = nil
        edit { $0.removeAll() }
    }

    func remove(_ index: Int) throws {
        try checkIndex(index)
        edit { $0.remove(at: index) }
    }

    func move(from: Int, to: Int) throws {
        try checkIndex(from)
        try checkIndex(to)
        guard from != to else { return }
        edit { $0.move(from: from, to: to) }
    }

    private func checkIndex(_ index: Int) throws {
        guard core.queue.items.indices.contains(index) else {
            throw ControlError(.rejected, "no track at index \(index) (the queue has \(core.queue.count))")
        }
    }

    private func edit(_ change: (inout PlayQueue) -> [Int?]) {
        queueVersion += 1
        run(core.edit(change))
    }
}

import PreviewCore

/// Editing the queue: clear, remove, move. The core follows the current track to its new index and
/// chooses the neighbours again.
extension Player {
    func clear() throws {
        lastSearch = nil
        run(core.edit { $0.removeAll() })
    }

    /// Removes the item at `index` (a position the queue has: `PlayQueue.position(of:)` checked it).
    func remove(_ index: Int) {
        run(core.edit { $0.remove(at: index) })
    }

    /// Moves the item at `from` to `to` (positions the queue has).
    func move(from: Int, to: Int) {
        guard from != to else { return }
        run(core.edit { $0.move(from: from, to: to) })
    }
}

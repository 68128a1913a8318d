import PreviewCore

/// Editing the queue: clear, remove, move. The transport follows the current track to its new
/// index; the slots and downloads follow the same map.
extension Player {
    func clear() throws {
        lastSearch = nil
        try edit { $0.removeAll() }
    }

    func remove(_ index: Int) throws {
        try checkIndex(index)
        try edit { $0.remove(at: index) }
    }

    func move(from: Int, to: Int) throws {
        try checkIndex(from)
        try checkIndex(to)
        guard from != to else { return }
        try edit { $0.move(from: from, to: to) }
    }

    private func checkIndex(_ index: Int) throws {
        guard queue.items.indices.contains(index) else {
            throw ControlError(.rejected, "no track at index \(index) (the queue has \(queue.count))")
        }
    }

    private func edit(_ change: (inout PlayQueue) -> [Int?]) throws {
        let map = change(&queue)
        queueVersion += 1
        let moved = { (i: Int) -> Int? in map.indices.contains(i) ? map[i] : nil }
        // Neighbours are re-chosen after the edit; downloads follow their items (or stop with them).
        dropSlots(keepingCurrent: true)
        var kept: [Int: PreviewDownload] = [:]
        for (index, download) in downloads {
            if let j = moved(index) { kept[j] = download } else { download.cancel() }
        }
        downloads = kept
        if let slot = current {
            if let j = moved(slot.index) { slot.index = j } else { slot.index = -1 }
        }
        try apply(.queueEdited(map: map))
    }
}

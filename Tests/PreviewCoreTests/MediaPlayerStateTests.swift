import PreviewCore
import XCTest

/// What MPRIS is shown of a status report, and which properties a change announces.
final class MediaPlayerStateTests: XCTestCase {
    private func report(_ state: PlaybackState, index: Int? = 0) -> StatusReport {
        var track = Track(trackId: 1001)
        track.trackName = "A Four Forty"
        track.artistName = "The Sine Waves"
        track.collectionName = "Pure Tones"
        track.primaryGenreName = "Electronic"
        track.trackNumber = 3
        track.trackViewUrl = "https://music.apple.com/us/album/701?i=1001"
        var report = StatusReport(state: state, index: index, positionMs: 2500, durationMs: 30_000, queueLength: 3,
                                  track: index == nil ? nil : track, error: nil, output: "ok")
        report.hasNext = true
        report.id = index.map { $0 + 41 }
        report.artwork = "/home/me/.cache/previewd/artwork/ab c.jpg"
        return report
    }

    func testAPlayingTrackIsShownWithItsMetadataAndWhatCanBeDone() {
        let state = MediaPlayerState(report(.playing))
        XCTAssertEqual(state.playbackStatus, "Playing")
        XCTAssertTrue(state.advancing)
        XCTAssertEqual(state.positionMicroseconds, 2_500_000)
        XCTAssertEqual([state.canGoNext, state.canGoPrevious, state.canPlay, state.canPause, state.canSeek], [true, true, true, true, true])
        XCTAssertEqual(state.metadata.trackID, "/org/previewd/track/41", "the queue item's id: it survives queue edits")
        XCTAssertEqual(state.metadata.lengthMicroseconds, 30_000_000)
        XCTAssertEqual(state.metadata.title, "A Four Forty")
        XCTAssertEqual(state.metadata.albumArtist, "The Sine Waves", "the artist when the album names none")
        XCTAssertEqual(state.metadata.trackNumber, 3)
        XCTAssertEqual(state.metadata.artURL, "file:///home/me/.cache/previewd/artwork/ab%20c.jpg")
    }

    /// mpris:length is what plays: the preview's length as decoded, before that 30 s, or the
    /// song's when the song is shorter; never the whole song's.
    func testTheLengthIsThePreviewsNotTheSongs() {
        var playing = report(.playing)
        playing.durationMs = nil
        playing.track?.trackTimeMillis = 187_000
        XCTAssertEqual(MediaPlayerState(playing).metadata.lengthMicroseconds, 30_000_000, "a 3:07 song, not yet decoded")
        playing.track?.trackTimeMillis = 12_000
        XCTAssertEqual(MediaPlayerState(playing).metadata.lengthMicroseconds, 12_000_000, "a song shorter than a preview")
        playing.durationMs = 29_976
        XCTAssertEqual(MediaPlayerState(playing).metadata.lengthMicroseconds, 29_976_000, "decoded: exact")
    }

    func testPausedStoppedAndModesMapToTheSpecificationsWords() {
        var paused = report(.paused)
        paused.repeat = .all
        paused.shuffle = true
        paused.volume = 40
        let state = MediaPlayerState(paused)
        XCTAssertEqual(state.playbackStatus, "Paused")
        XCTAssertFalse(state.advancing)
        XCTAssertEqual(state.loopStatus, "Playlist")
        XCTAssertTrue(state.shuffle)
        XCTAssertEqual(state.volume, 0.4, accuracy: 1e-9)
        paused.muted = true
        XCTAssertEqual(MediaPlayerState(paused).volume, 0, "muted is silent")

        let stopped = MediaPlayerState(report(.idle, index: nil))
        XCTAssertEqual(stopped.playbackStatus, "Stopped")
        XCTAssertNil(stopped.metadata.trackID, "nothing current: an empty Metadata map")
        XCTAssertFalse(stopped.canPause)
        XCTAssertFalse(stopped.canSeek)
        XCTAssertTrue(stopped.canPlay, "a queue to play")
    }

    func testOnlyWhatChangedIsAnnouncedAndPositionNever() {
        let playing = MediaPlayerState(report(.playing))
        XCTAssertEqual(playing.changedProperties(since: nil).count, 10, "the first time: everything but Position")
        var later = report(.playing)
        later.positionMs = 9000
        XCTAssertEqual(MediaPlayerState(later).changedProperties(since: playing), [], "the position moving is no change")
        later.hasNext = false
        later.repeat = .one
        XCTAssertEqual(MediaPlayerState(later).changedProperties(since: playing), ["LoopStatus", "CanGoNext"])
        XCTAssertEqual(MediaPlayerState(report(.paused)).changedProperties(since: playing), ["PlaybackStatus"])
    }

    func testDesktopCommandsAreControlCommands() {
        XCTAssertEqual(MediaPlayerCommand.playPause.controlCommand, .toggle)
        XCTAssertEqual(MediaPlayerCommand.previous.controlCommand, .prev)
        XCTAssertEqual(MediaPlayerCommand.seek(offsetMicroseconds: -5_000_000).controlCommand, .seek(.relative(ms: -5000)))
        XCTAssertEqual(MediaPlayerCommand.setPosition(microseconds: 12_345_678).controlCommand, .seek(.absolute(ms: 12_345)))
        XCTAssertEqual(MediaPlayerCommand.setVolume(0.555).controlCommand, .volume(.set(56)))
        XCTAssertEqual(MediaPlayerCommand.setVolume(7).controlCommand, .volume(.set(100)))
        XCTAssertEqual(MediaPlayerCommand.setLoop(.one).controlCommand, .setRepeat(.one))
        XCTAssertNil(MediaPlayerCommand.quit.controlCommand)
    }
}

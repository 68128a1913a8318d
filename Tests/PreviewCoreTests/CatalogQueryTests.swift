import PreviewCore
import XCTest

/// Each query form against the request Apple documents (the iTunes v2 seed's seven cases and more).
final class CatalogQueryTests: XCTestCase {
    private func items(_ q: CatalogQuery) -> [String] { q.plan.items.map { "\($0.0)=\($0.1)" } }

    func testTheSevenStructuredCasesOfTheSeed() {
        // Any one
        // A field alone is asked of that field only (Apple's attribute), among music.
        XCTAssertEqual(items(CatalogQuery(artist: "the rolling stones", limit: 15)),
                       ["term=the rolling stones", "media=music", "entity=song", "attribute=artistTerm", "limit=15"])
        XCTAssertEqual(items(CatalogQuery(song: "under my thumb")), ["term=under my thumb", "media=music", "entity=song", "limit=50"])
        XCTAssertEqual(items(CatalogQuery(album: "hot rocks")), ["term=hot rocks", "media=music", "entity=album", "attribute=albumTerm", "limit=50"])
        XCTAssertTrue(CatalogQuery(album: "hot rocks").plan.expandsAlbums)
        // The artist's albums: listed, not expanded.
        let albums = CatalogQuery(artist: "the rolling stones", albums: true)
        XCTAssertEqual(items(albums), ["term=the rolling stones", "media=music", "entity=album", "attribute=artistTerm", "limit=50"])
        XCTAssertFalse(albums.plan.expandsAlbums)
        // A media of the listener's own keeps the attribute only where Apple has it (music, music videos).
        XCTAssertEqual(items(CatalogQuery(artist: "x", media: "musicVideo")), ["term=x", "media=musicVideo", "attribute=artistTerm", "limit=50"])
        XCTAssertEqual(items(CatalogQuery(artist: "x", media: "movie")), ["term=x", "media=movie", "limit=50"])
        // Any two
        let album = CatalogQuery(artist: "the rolling stones", album: "exile on main", limit: 15)
        XCTAssertEqual(items(album), ["term=the rolling stones exile on main", "media=music", "entity=album", "limit=15"])
        XCTAssertTrue(album.plan.expandsAlbums)
        XCTAssertEqual(items(CatalogQuery(album: "hot rocks", song: "under my thumb")),
                       ["term=hot rocks under my thumb", "media=music", "entity=song", "limit=50"])
        XCTAssertEqual(items(CatalogQuery(artist: "rolling stones", song: "under my thumb")),
                       ["term=rolling stones under my thumb", "media=music", "entity=song", "limit=50"])
        // All three
        XCTAssertEqual(items(CatalogQuery(artist: "the rolling stones", album: "hot rocks", song: "thumb")),
                       ["term=the rolling stones hot rocks thumb", "media=music", "entity=song", "limit=50"])
        XCTAssertFalse(CatalogQuery(artist: "a", album: "b", song: "c").plan.expandsAlbums)
    }

    func testFreeTermsAndApplesParameters() {
        XCTAssertEqual(items(CatalogQuery(term: "jack johnson")), ["term=jack johnson", "media=music", "entity=song", "limit=50"])
        XCTAssertEqual(items(CatalogQuery(term: "Amelie", media: "movie", limit: 10)), ["term=Amelie", "media=movie", "limit=10"])
        XCTAssertEqual(items(CatalogQuery(term: "Amelie", entity: "movie", limit: 10)), ["term=Amelie", "entity=movie", "limit=10"])
        XCTAssertEqual(items(CatalogQuery(term: "Emily", entity: "song", attribute: "songTerm", limit: 50, offset: 100, explicit: false)),
                       ["term=Emily", "media=music", "entity=song", "attribute=songTerm", "limit=50", "offset=100", "explicit=No"])
        XCTAssertEqual(CatalogQuery(term: "x", limit: 30).nextPage.offset, 30)
        XCTAssertEqual(CatalogQuery(term: "x", limit: 30, offset: 30).nextPage.offset, 60)
    }

    func testBadQueriesAreRefusedWithAClearMessage() {
        let bad: [(CatalogQuery, String)] = [
            (CatalogQuery(), "give a search term"),
            (CatalogQuery(term: "   "), "give a search term"),
            (CatalogQuery(term: "x", limit: 0), "between 1 and 200"),
            (CatalogQuery(term: "x", limit: 201), "between 1 and 200"),
            (CatalogQuery(term: "x", offset: -1), "offset"),
            (CatalogQuery(term: "x", media: "vinyl"), "unknown media"),
            (CatalogQuery(term: "x", entity: "lp"), "unknown entity"),
            (CatalogQuery(term: "x", attribute: "a&b=c"), "attribute"),
            (CatalogQuery(term: "x", country: "USA"), "two-letter"),
            (CatalogQuery(term: "x", country: "ZZ"), "ISO 3166-1"),
            (CatalogQuery(term: "x", country: "UK"), "ISO 3166-1"),
        ]
        for (query, expected) in bad {
            XCTAssertThrowsError(try query.validate(), "\(query)") { error in
                XCTAssertTrue((error as? ControlError)?.message.contains(expected) == true, "\(error)")
            }
        }
        XCTAssertNoThrow(try CatalogQuery(term: "x", limit: 200).validate())
        XCTAssertNoThrow(try CatalogQuery(term: "x", limit: 1).validate())
        XCTAssertNoThrow(try CatalogQuery(term: "x", country: "gb").validate())
        XCTAssertNoThrow(try CatalogQuery(term: "x", entity: "podcastEpisode").validate(), "an entity Apple accepts")
        XCTAssertThrowsError(try ChartQuery(country: "zz").validate())
        XCTAssertThrowsError(try LookupQuery(ids: [1], country: "XX").validate())
    }

    func testPreviewctlAndMPDAskForAFieldTheSameWay() {
        // MPD's `find artist X` and previewctl's `--artist X` reach Apple as the same request.
        XCTAssertEqual(items(.music("slayer", in: .artist)), ["term=slayer", "media=music", "entity=song", "attribute=artistTerm", "limit=50"])
        XCTAssertEqual(items(CatalogQuery(artist: "slayer")), items(.music("slayer", in: .artist)))
        XCTAssertEqual(CatalogField.allCases.map(\.attribute), ["artistTerm", "albumTerm", "songTerm", "genreIndex"])
        XCTAssertEqual(items(.music("any words", in: nil)), ["term=any words", "media=music", "entity=song", "limit=50"])
    }

    func testLookupAndChartRequests() {
        XCTAssertEqual(LookupQuery(ids: [1469577723]).plan.items.map { "\($0.0)=\($0.1)" }, ["id=1469577723", "entity=song"])
        XCTAssertEqual(LookupQuery(ids: [909253, 1], entity: "song", limit: 5, sort: "recent").plan.items.map { "\($0.0)=\($0.1)" },
                       ["id=909253,1", "entity=song", "limit=5", "sort=recent"])
        XCTAssertEqual(LookupQuery.ids("1,2, 3"), [1, 2, 3])
        XCTAssertNil(LookupQuery.ids("1,x"))
        XCTAssertNil(LookupQuery.ids("-4"))
        XCTAssertThrowsError(try LookupQuery(ids: []).validate())
        XCTAssertThrowsError(try LookupQuery(ids: [1], sort: "oldest").validate())
        XCTAssertEqual(ChartQuery(limit: 10).path(country: "US"), "us/rss/topsongs/limit=10/json")
        XCTAssertEqual(ChartQuery(limit: 25, country: "gb", genre: 21).path(country: "US"), "gb/rss/topsongs/limit=25/genre=21/json")
        XCTAssertEqual(ChartQuery(limit: 30).currentPath(country: "US"), "api/v2/us/music/most-played/50/songs.json", "v2 serves 10, 25, 50, 100")
        XCTAssertEqual(ChartQuery(limit: 150, country: "gb").currentPath(country: "US"), "api/v2/gb/music/most-played/100/songs.json")
        XCTAssertNil(ChartQuery(genre: 21).currentPath(country: "US"), "v2 has no genre charts")
        XCTAssertThrowsError(try ChartQuery(limit: 0).validate())
        XCTAssertThrowsError(try ChartQuery(limit: 201).validate())
    }

    func testProtocolArgumentsRoundTrip() throws {
        let commands: [ControlCommand] = [
            .search(CatalogQuery(term: "x", artist: "a", album: "b", song: "c", media: "music", entity: "song", attribute: "songTerm",
                                 limit: 7, offset: 14, country: "GB", explicit: true), Enqueue(append: true, play: false, sort: TrackSort(.price, descending: true))),
            .lookup(LookupQuery(ids: [1, 2], entity: "song", limit: 3, sort: "recent"), Enqueue()),
            .lookup(LookupQuery(ids: [5]), Enqueue(sort: TrackSort(.title))),
            .top(ChartQuery(limit: 10, country: "us", genre: 21), Enqueue(play: false)),
            .search(CatalogQuery(term: "y"), Enqueue(queue: false)), .search(CatalogQuery(term: "z"), Enqueue(append: true, at: .next)),
            .search(CatalogQuery(artist: "a", albums: true), Enqueue(queue: false)),
            .lookup(LookupQuery(ids: [3]), Enqueue(at: .index(4))), .more(queue: true), .more(queue: false),
            .add(.trackIds([1, 2]), Enqueue(play: false, at: .end)), .add(.tracks([Track(trackId: 9, trackName: "t")]), Enqueue(play: true, at: .next)),
            .artworkFile(.id(2), offset: 65536), .artworkFile(nil, offset: 0), .setSingle(.oneshot), .setConsume(true),
            .queue(since: nil), .queue(since: 41), .info(.index(3)), .info(.id(12)), .info(nil), .share, .clear, .remove(.index(2)), .remove(.id(5)),
            .move(from: .index(1), to: .index(0)), .move(from: .id(7), to: .index(0)), .move(from: .index(2), to: .id(9)),
            .play(.id(4)), .play(.index(0)), .play(nil), .artwork(.id(3), width: 8, height: 8),
            .subscribe(position: true),
        ]
        for command in commands {
            XCTAssertEqual(try ControlCommand(command.request(id: 1)), command)
        }
    }

    func testIdsPastInt32SurviveTheProtocol() throws {
        // Found by scripts/fuzz: ids above 2^31 were dropped on the way back from the wire.
        let big = LookupQuery(ids: [3_130_696_762_532_619, 1_469_577_723])
        let command = ControlCommand.lookup(big, Enqueue())
        XCTAssertEqual(try ControlCommand(command.request(id: 1)), command)
        XCTAssertThrowsError(try LookupQuery(ids: [Int.max]).validate(), "ids a JSON number cannot carry exactly are refused")
    }

    func testProtocolRejectsWrongTypes() {
        let bad: [[String: JSONValue]] = [["term": .number(3)], ["term": .string("x"), "limit": .string("5")],
                                          ["term": .string("x"), "sort": .string("colour")], ["term": .string("x"), "append": .string("yes")]]
        for args in bad {
            XCTAssertThrowsError(try ControlCommand(ControlRequest(id: 1, cmd: "search", args: args))) { error in
                XCTAssertEqual((error as? ControlError)?.code, .badArgument)
            }
        }
        XCTAssertThrowsError(try ControlCommand(ControlRequest(id: 1, cmd: "remove")))
        XCTAssertThrowsError(try ControlCommand(ControlRequest(id: 1, cmd: "move", args: ["from": .number(1)])))
        XCTAssertThrowsError(try ControlCommand(ControlRequest(id: 1, cmd: "lookup", args: ["id": .string("abc")])))
    }
}

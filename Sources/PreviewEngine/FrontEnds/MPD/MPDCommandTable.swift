/// Every command previewd answers, sorted by name, in one table: the dispatcher, `commands` and
/// `notcommands` all read it, so what is advertised is what is served. Commands previewd cannot
/// carry out (stickers, partitions, mounts) are not in it and get MPD's `unknown command`.
public enum MPDCommandTable {
    /// The table, sorted by name.
    public static let all: [MPDCommand] = [
        MPDCommand("add", .add, 1, 2, MPDCommands.add),
        MPDCommand("addid", .add, 1, 2, MPDCommands.addid),
        MPDCommand("albumart", .read, 2, 2, MPDCommands.albumart),
        MPDCommand("binarylimit", .none, 1, 1, MPDCommands.binarylimit),
        MPDCommand("channels", .read, 0, 0, MPDCommands.channels),
        MPDCommand("clear", .control, 0, 0, MPDCommands.clear),
        MPDCommand("clearerror", .control, 0, 0, MPDCommands.clearerror),
        MPDCommand("close", .none, 0, nil, MPDCommands.handledByProtocol),
        MPDCommand("command_list_begin", .none, 0, 0, MPDCommands.handledByProtocol),
        MPDCommand("command_list_end", .none, 0, 0, MPDCommands.handledByProtocol),
        MPDCommand("command_list_ok_begin", .none, 0, 0, MPDCommands.handledByProtocol),
        MPDCommand("commands", .none, 0, 0, MPDCommands.commands),
        MPDCommand("config", .admin, 0, 0, MPDCommands.config),
        MPDCommand("consume", .control, 1, 1, MPDCommands.consume),
        MPDCommand("count", .read, 1, nil, MPDCommands.count),
        MPDCommand("crossfade", .control, 1, 1, MPDCommands.crossfade),
        MPDCommand("currentsong", .read, 0, 0, MPDCommands.currentsong),
        MPDCommand("decoders", .read, 0, 0, MPDCommands.decoders),
        MPDCommand("delete", .control, 1, 1, MPDCommands.delete),
        MPDCommand("deleteid", .control, 1, 1, MPDCommands.deleteid),
        MPDCommand("disableoutput", .admin, 1, 1, MPDCommands.disableoutput),
        MPDCommand("enableoutput", .admin, 1, 1, MPDCommands.enableoutput),
        MPDCommand("find", .read, 1, nil, MPDCommands.find),
        MPDCommand("findadd", .add, 1, nil, MPDCommands.findadd),
        MPDCommand("getvol", .read, 0, 0, MPDCommands.getvol),
        MPDCommand("idle", .read, 0, nil, MPDCommands.handledByProtocol),
        MPDCommand("list", .read, 1, nil, MPDCommands.list),
        MPDCommand("listall", .read, 0, 1, MPDCommands.listall),
        MPDCommand("listallinfo", .read, 0, 1, MPDCommands.listallinfo),
        MPDCommand("listfiles", .read, 0, 1, MPDCommands.listfiles),
        MPDCommand("listpartitions", .read, 0, 0, MPDCommands.listpartitions),
        MPDCommand("listplaylist", .read, 1, 2, MPDCommands.listplaylist),
        MPDCommand("listplaylistinfo", .read, 1, 2, MPDCommands.listplaylistinfo),
        MPDCommand("listplaylists", .read, 0, 0, MPDCommands.listplaylists),
        MPDCommand("load", .add, 1, 3, MPDCommands.load),
        MPDCommand("lsinfo", .read, 0, 1, MPDCommands.lsinfo),
        MPDCommand("mixrampdb", .control, 1, 1, MPDCommands.mixrampdb),
        MPDCommand("mixrampdelay", .control, 1, 1, MPDCommands.mixrampdelay),
        MPDCommand("move", .control, 2, 2, MPDCommands.move),
        MPDCommand("moveid", .control, 2, 2, MPDCommands.moveid),
        MPDCommand("next", .control, 0, 0, MPDCommands.next),
        MPDCommand("noidle", .read, 0, 0, MPDCommands.handledByProtocol),
        MPDCommand("notcommands", .none, 0, 0, MPDCommands.notcommands),
        MPDCommand("outputs", .read, 0, 0, MPDCommands.outputs),
        MPDCommand("outputset", .admin, 3, 3, MPDCommands.outputset),
        MPDCommand("partition", .read, 1, 1, MPDCommands.partition),
        MPDCommand("password", .none, 1, 1, MPDCommands.password),
        MPDCommand("pause", .control, 0, 1, MPDCommands.pause),
        MPDCommand("ping", .none, 0, 0, MPDCommands.ping),
        MPDCommand("play", .control, 0, 1, MPDCommands.play),
        MPDCommand("playid", .control, 0, 1, MPDCommands.playid),
        MPDCommand("playlist", .read, 0, 0, MPDCommands.playlist),
        MPDCommand("playlistadd", .control, 2, 3, MPDCommands.playlistadd),
        MPDCommand("playlistclear", .control, 1, 1, MPDCommands.playlistclear),
        MPDCommand("playlistdelete", .control, 2, 2, MPDCommands.playlistdelete),
        MPDCommand("playlistfind", .read, 1, nil, MPDCommands.playlistfind),
        MPDCommand("playlistid", .read, 0, 1, MPDCommands.playlistid),
        MPDCommand("playlistinfo", .read, 0, 1, MPDCommands.playlistinfo),
        MPDCommand("playlistmove", .control, 3, 3, MPDCommands.playlistmove),
        MPDCommand("playlistsearch", .read, 1, nil, MPDCommands.playlistsearch),
        MPDCommand("plchanges", .read, 1, 2, MPDCommands.plchanges),
        MPDCommand("plchangesposid", .read, 1, 2, MPDCommands.plchangesposid),
        MPDCommand("previous", .control, 0, 0, MPDCommands.previous),
        MPDCommand("prio", .control, 2, nil, MPDCommands.prio),
        MPDCommand("prioid", .control, 2, nil, MPDCommands.prioid),
        MPDCommand("random", .control, 1, 1, MPDCommands.random),
        MPDCommand("readmessages", .read, 0, 0, MPDCommands.readmessages),
        MPDCommand("readpicture", .read, 2, 2, MPDCommands.readpicture),
        MPDCommand("rename", .control, 2, 2, MPDCommands.rename),
        MPDCommand("repeat", .control, 1, 1, MPDCommands.repeatMode),
        MPDCommand("replay_gain_mode", .control, 1, 1, MPDCommands.replayGainMode),
        MPDCommand("replay_gain_status", .read, 0, 0, MPDCommands.replayGainStatus),
        MPDCommand("rescan", .control, 0, 1, MPDCommands.update),
        MPDCommand("rm", .control, 1, 1, MPDCommands.rm),
        MPDCommand("save", .control, 1, 2, MPDCommands.save),
        MPDCommand("search", .read, 1, nil, MPDCommands.search),
        MPDCommand("searchadd", .add, 1, nil, MPDCommands.searchadd),
        MPDCommand("seek", .control, 2, 2, MPDCommands.seek),
        MPDCommand("seekcur", .control, 1, 1, MPDCommands.seekcur),
        MPDCommand("seekid", .control, 2, 2, MPDCommands.seekid),
        MPDCommand("sendmessage", .control, 2, 2, MPDCommands.sendmessage),
        MPDCommand("setvol", .control, 1, 1, MPDCommands.setvol),
        MPDCommand("shuffle", .control, 0, 1, MPDCommands.shuffle),
        MPDCommand("single", .control, 1, 1, MPDCommands.single),
        MPDCommand("stats", .read, 0, 0, MPDCommands.stats),
        MPDCommand("status", .read, 0, 0, MPDCommands.status),
        MPDCommand("stop", .control, 0, 0, MPDCommands.stop),
        MPDCommand("subscribe", .read, 1, 1, MPDCommands.subscribe),
        MPDCommand("swap", .control, 2, 2, MPDCommands.swap),
        MPDCommand("swapid", .control, 2, 2, MPDCommands.swapid),
        MPDCommand("tagtypes", .read, 0, nil, MPDCommands.tagtypes),
        MPDCommand("toggleoutput", .admin, 1, 1, MPDCommands.toggleoutput),
        MPDCommand("unsubscribe", .read, 1, 1, MPDCommands.unsubscribe),
        MPDCommand("update", .control, 0, 1, MPDCommands.update),
        MPDCommand("urlhandlers", .read, 0, 0, MPDCommands.urlhandlers),
        MPDCommand("volume", .control, 1, 1, MPDCommands.volume),
    ]

    static let byName: [String: MPDCommand] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The command `name` for a client of `session`'s rights with `count` arguments, or the
    /// `ACK` MPD gives: unknown command, no permission, wrong number of arguments.
    public static func command(_ name: String, arguments count: Int, may: (MPDPermission) -> Bool) throws(MPDError) -> MPDCommand {
        guard let command = byName[name] else { throw MPDError(.unknown, "unknown command \"\(name.prefix(64))\"") }
        guard may(command.permission) else { throw MPDError(.permission, "you don't have permission for \"\(name)\"") }
        if command.minArguments == command.maxArguments, count != command.minArguments {   // MPD's AllCommands.cxx, first
            throw MPDError(.arg, "wrong number of arguments for \"\(name)\"")
        }
        guard count >= command.minArguments else { throw MPDError(.arg, "too few arguments for \"\(name)\"") }
        guard count <= command.maxArguments ?? Int.max else { throw MPDError(.arg, "too many arguments for \"\(name)\"") }
        return command
    }
}

extension MPDCommandTable {
    /// True when `name` is a command of the table.
    public static func has(_ name: String) -> Bool { byName[name] != nil }
}

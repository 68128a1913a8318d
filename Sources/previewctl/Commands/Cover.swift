import ArgumentParser
import Glibc
import PreviewCore

extension Previewctl {
    /// `previewctl cover [INDEX] [--id ID] [--output FILE]`: the artwork image as fetched.
    struct Cover: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "cover",
            abstract: "Write a track's artwork image (JPEG or PNG, as fetched) to a file or stdout; the current track's by default.",
            discussion: """
                Examples:
                  previewctl cover --output cover.jpg
                  previewctl cover 3 > third.jpg
                """)

        @ParentCommand var root: Previewctl
        @OptionGroup var item: ItemSelection

        @Option(name: [.short, .long], help: ArgumentHelp("Write the image here (default: stdout, if it is not a terminal).", valueName: "FILE"))
        var output: String?

        func validate() throws {
            if output == nil, isatty(STDOUT_FILENO) == 1 { throw ValidationError("stdout is a terminal: give --output FILE or redirect it") }
        }

        func run() throws {
            let invocation = root.options.invocation
            let client = ControlClient(path: invocation.socketPath)
            var image: [UInt8] = []
            var size = 0
            repeat {   // chunks of at most 64 KiB, as previewd answers them; an image is at most 4 MiB
                let response: Invocation.TypedResponse<ArtworkFileReport>
                do { response = try client.send(.artworkFile(item.ref, offset: image.count), as: Invocation.TypedResponse<ArtworkFileReport>.self) } catch {
                    throw Invocation.exit(error)
                }
                guard response.ok, let chunk = response.result else {
                    Output.error(response.error?.message ?? "previewd refused the command")
                    throw ExitCode(ExitStatus.forError(response.error?.code))
                }
                size = chunk.size
                guard !chunk.data.isEmpty else { break }
                image += chunk.data
            } while image.count < size
            let fd = output.map { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } ?? STDOUT_FILENO
            guard fd >= 0 else {
                Output.error("cannot write \(output ?? "stdout"): \(String(cString: strerror(errno)))")
                throw ExitCode(1)
            }
            defer { if fd != STDOUT_FILENO { close(fd) } }
            Output.write(bytes: image, to: fd)
        }
    }
}

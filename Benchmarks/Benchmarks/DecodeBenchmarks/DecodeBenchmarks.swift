import Benchmark
import Foundation
import PreviewCore
import PreviewEngine

let benchmarks: @Sendable () -> Void = {
    Benchmark("placeholder") { benchmark in
        blackHole(1)
    }
}

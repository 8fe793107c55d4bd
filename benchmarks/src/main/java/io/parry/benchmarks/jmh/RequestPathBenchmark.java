package io.parry.benchmarks.jmh;

import io.parry.benchmarks.socketless.SocketlessConnection;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One request through a whole server connection with no socket ({@link SocketlessConnection}), Parry's against
 * the raw-Netty baseline's. Run it with {@code -prof gc}: {@code gc.alloc.rate.norm} is the bytes each request
 * allocates, which unlike wall-clock req/s does not depend on what else the machine is doing. {@code
 * benchmarks/cpu.sh} measures the same requests' thread CPU time.
 *
 * <pre>
 * java -jar benchmarks/target/parry-benchmarks.jar RequestPathBenchmark -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Dio.netty.leakDetection.level=disabled", "-Xms512m", "-Xmx512m"})
@State(Scope.Thread)
public class RequestPathBenchmark {
    @Param({"parry", "netty"})
    public String server;

    @Param({"h1-plaintext", "h1-json", "h1-echo", "h2-plaintext"})
    public String scenario;

    private SocketlessConnection connection;

    @Setup(Level.Iteration)
    public void connect() {
        connection = SocketlessConnection.open(server, scenario);
    }

    @Benchmark
    public int request() {
        return connection.request();
    }

    @TearDown(Level.Iteration)
    public void close() {
        connection.close();
    }
}

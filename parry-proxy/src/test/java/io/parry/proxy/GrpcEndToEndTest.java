package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.parry.client.ClientOptions;
import io.parry.client.ClientProtocol;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.upstream.Upstream;
import io.parry.testing.NettyLeakExtension;
import io.parry.testing.ServerExtension;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * gRPC end to end: a real grpc-java client, a Parry server proxying over h2c, a real grpc-java
 * server. Unary and bidirectional-streaming calls pass with their trailers; deadlines
 * ({@code grpc-timeout}) and cancellation (RST_STREAM) reach the upstream; a gateway failure is a
 * gRPC status. It needs the Parry server to speak HTTP/2 (the h2server branch): until then it is
 * skipped, saying so.
 */
@ExtendWith(NettyLeakExtension.class)
class GrpcEndToEndTest {
    private static volatile ProxyHandler echoProxy;
    private static volatile ProxyHandler downProxy;

    @RegisterExtension
    static final ServerExtension gateway = ServerExtension.of((ctx, request) -> echoProxy.handle(ctx, request));

    @RegisterExtension
    static final ServerExtension downGateway = ServerExtension.of((ctx, request) -> downProxy.handle(ctx, request));

    private static Server grpc;
    private static HttpClient h2c;
    private static ManagedChannel channel;
    private static ManagedChannel downChannel;

    @BeforeAll
    static void start() throws IOException {
        Assumptions.assumeTrue(
                speaksH2c(gateway.port()),
                "SKIPPED: the Parry server does not accept h2c with prior knowledge yet; this test needs the h2server branch");
        grpc = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(GrpcEcho.service())
                .build()
                .start();
        h2c = HttpClient.builder()
                .options(ClientOptions.builder().protocol(ClientProtocol.H2C).build())
                .build();
        echoProxy = ProxyHandler.builder(
                        GuardedUpstream.builder(Upstream.of("echo", Endpoint.of("127.0.0.1", grpc.getPort())))
                                .client(h2c)
                                .build())
                .build();
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        downProxy = ProxyHandler.builder(
                        GuardedUpstream.builder(Upstream.of("down", Endpoint.of("127.0.0.1", closedPort)))
                                .client(h2c)
                                .build())
                .build();
        channel = NettyChannelBuilder.forAddress("127.0.0.1", gateway.port())
                .usePlaintext()
                .build();
        downChannel = NettyChannelBuilder.forAddress("127.0.0.1", downGateway.port())
                .usePlaintext()
                .build();
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            downChannel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            h2c.close();
            grpc.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void passesAUnaryCall() {
        byte[] answer = ClientCalls.blockingUnaryCall(
                channel, GrpcEcho.UNARY, CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS), bytes("hi"));

        assertThat(text(answer)).isEqualTo("echo hi");
    }

    @Test
    void passesTheUpstreamsStatusInItsTrailers() {
        StatusRuntimeException failure = catchThrowableOfType(
                StatusRuntimeException.class,
                () -> ClientCalls.blockingUnaryCall(
                        channel,
                        GrpcEcho.FAIL,
                        CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS),
                        bytes("hi")));

        assertThat(failure.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
        assertThat(failure.getStatus().getDescription()).isEqualTo("no such thing");
    }

    @Test
    void endsACallPastItsDeadline() {
        StatusRuntimeException failure = catchThrowableOfType(
                StatusRuntimeException.class,
                () -> ClientCalls.blockingUnaryCall(
                        channel,
                        GrpcEcho.SLOW,
                        CallOptions.DEFAULT.withDeadlineAfter(300, TimeUnit.MILLISECONDS),
                        bytes("hi")));

        assertThat(failure.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    }

    @Test
    void answersUnavailableWhenTheUpstreamIsDown() {
        StatusRuntimeException failure = catchThrowableOfType(
                StatusRuntimeException.class,
                () -> ClientCalls.blockingUnaryCall(
                        downChannel,
                        GrpcEcho.UNARY,
                        CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS),
                        bytes("hi")));

        assertThat(failure.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    }

    @Test
    void streamsBothWaysMessageByMessage() throws Exception {
        Answers answers = new Answers();
        StreamObserver<byte[]> requests =
                ClientCalls.asyncBidiStreamingCall(channel.newCall(GrpcEcho.CHAT, CallOptions.DEFAULT), answers);

        for (String message : new String[] {"one", "two", "three"}) {
            requests.onNext(bytes(message));
            // Each answer arrives before the next message is sent: nothing waits for the end of a body.
            assertThat(text(answers.messages.poll(5, TimeUnit.SECONDS))).isEqualTo("echo " + message);
        }
        requests.onCompleted();

        answers.done.get(5, TimeUnit.SECONDS);
    }

    @Test
    void cancelsTheUpstreamCallWhenTheClientCancels() throws Exception {
        int cancelledBefore = GrpcEcho.cancelled.get();
        Answers answers = new Answers();
        ClientCall<byte[], byte[]> call = channel.newCall(GrpcEcho.CHAT, CallOptions.DEFAULT);
        StreamObserver<byte[]> requests = ClientCalls.asyncBidiStreamingCall(call, answers);
        requests.onNext(bytes("one"));
        assertThat(text(answers.messages.poll(5, TimeUnit.SECONDS))).isEqualTo("echo one");

        call.cancel("the caller left", null);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (GrpcEcho.cancelled.get() == cancelledBefore && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(GrpcEcho.cancelled.get()).isGreaterThan(cancelledBefore);
    }

    private static final class Answers implements StreamObserver<byte[]> {
        final BlockingQueue<byte[]> messages = new LinkedBlockingQueue<>();
        final CompletableFuture<Void> done = new CompletableFuture<>();

        @Override
        public void onNext(byte[] message) {
            messages.add(message);
        }

        @Override
        public void onError(Throwable failure) {
            done.completeExceptionally(failure);
        }

        @Override
        public void onCompleted() {
            done.complete(null);
        }
    }

    /** Whether the server answers the HTTP/2 connection preface with a SETTINGS frame (RFC 9113, section 3.4). */
    private static boolean speaksH2c(int port) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0});
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] head = in.readNBytes(9);
            return head.length == 9 && head[3] == 4;
        } catch (IOException e) {
            return false;
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}

package io.parry.proxy;

import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A gRPC service for the proxy's tests, described by hand (no generated code): messages are raw
 * bytes. {@code Unary} answers {@code echo <request>}, {@code Fail} answers NOT_FOUND, {@code Slow}
 * never answers, and {@code Chat} (bidirectional streaming) answers each message as it comes and
 * counts the calls its clients cancelled ({@link #cancelled}).
 */
final class GrpcEcho {
    static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    static final MethodDescriptor<byte[], byte[]> UNARY = method("Unary", MethodDescriptor.MethodType.UNARY);
    static final MethodDescriptor<byte[], byte[]> FAIL = method("Fail", MethodDescriptor.MethodType.UNARY);
    static final MethodDescriptor<byte[], byte[]> SLOW = method("Slow", MethodDescriptor.MethodType.UNARY);
    static final MethodDescriptor<byte[], byte[]> CHAT = method("Chat", MethodDescriptor.MethodType.BIDI_STREAMING);

    /** How many Chat calls ended by their client's cancellation. */
    static final AtomicInteger cancelled = new AtomicInteger();

    private GrpcEcho() {}

    static ServerServiceDefinition service() {
        return ServerServiceDefinition.builder("test.Echo")
                .addMethod(UNARY, ServerCalls.asyncUnaryCall((request, response) -> {
                    response.onNext(echo(request));
                    response.onCompleted();
                }))
                .addMethod(
                        FAIL,
                        ServerCalls.asyncUnaryCall((request, response) -> response.onError(Status.NOT_FOUND
                                .withDescription("no such thing")
                                .asRuntimeException())))
                .addMethod(SLOW, ServerCalls.asyncUnaryCall((request, response) -> {}))
                .addMethod(CHAT, ServerCalls.asyncBidiStreamingCall(response -> new StreamObserver<byte[]>() {
                    @Override
                    public void onNext(byte[] message) {
                        response.onNext(echo(message));
                    }

                    @Override
                    public void onError(Throwable failure) {
                        if (Status.fromThrowable(failure).getCode() == Status.Code.CANCELLED) {
                            cancelled.incrementAndGet();
                        }
                    }

                    @Override
                    public void onCompleted() {
                        response.onCompleted();
                    }
                }))
                .build();
    }

    static byte[] echo(byte[] request) {
        return ("echo " + new String(request, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
    }

    private static MethodDescriptor<byte[], byte[]> method(String name, MethodDescriptor.MethodType type) {
        return MethodDescriptor.<byte[], byte[]>newBuilder()
                .setType(type)
                .setFullMethodName("test.Echo/" + name)
                .setRequestMarshaller(BYTES)
                .setResponseMarshaller(BYTES)
                .build();
    }
}

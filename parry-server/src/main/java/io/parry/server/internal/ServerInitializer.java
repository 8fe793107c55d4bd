package io.parry.server.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.parry.server.Handler;
import io.parry.server.Rejection;
import io.parry.server.ServerOptions;
import java.util.List;

/**
 * Sets up each accepted connection: refuses it at once beyond the connection limit; on a cleartext
 * listener installs the HTTP/1.1 framing (behind a detector of the HTTP/2 preface when h2c by prior
 * knowledge is on), on a TLS listener the handshake, after which {@link #installFraming} installs the
 * framing ALPN chose.
 */
public final class ServerInitializer extends ChannelInitializer<Channel> {
    /** The ALPN protocols a TLS listener offers, in preference order (RFC 7301; RFC 9113, section 3.2). */
    static final List<String> APPLICATION_PROTOCOLS = List.of(ConnectionTls.H2, ConnectionTls.HTTP_1_1);

    static final String DECODER = "decoder";
    static final String ENCODER = "encoder";
    static final String CONNECTION = "connection";

    private final ServerRuntime runtime;

    ServerInitializer(ServerRuntime runtime) {
        this.runtime = runtime;
    }

    /**
     * The connection set-up of a server with {@code options} and {@code handler} but no listener, no
     * request listeners and no tracer: for driving Parry's framing on a channel with no socket, as the
     * request-path benchmarks do. Not API.
     */
    public static ChannelHandler detached(ServerOptions options, Handler handler) {
        return new ServerInitializer(new ServerRuntime(options, handler, new RequestListeners(List.of()), null));
    }

    @Override
    protected void initChannel(Channel channel) {
        if (!runtime.connections.tryOpen(runtime.limits.maxConnections())) {
            runtime.rejections.record(Rejection.TOO_MANY_CONNECTIONS, channel.remoteAddress(), "connection limit");
            channel.close();
            return;
        }
        if (runtime.tls == null) {
            installFraming(runtime, channel.pipeline(), null);
        } else {
            runtime.tls.addHandshake(runtime, channel.pipeline());
        }
    }

    /**
     * Installs the framing of a connection: over cleartext at once, over TLS when the handshake has
     * chosen a protocol ({@code tls.applicationProtocol()}). The one place a protocol becomes a pipeline.
     */
    static void installFraming(ServerRuntime runtime, ChannelPipeline pipeline, ConnectionTls tls) {
        String protocol = tls == null ? ConnectionTls.HTTP_1_1 : tls.info().applicationProtocol();
        if (protocol.equals(ConnectionTls.H2)) {
            Http2Pipeline.configure(pipeline, runtime, tls);
            return;
        }
        // RFC 9113, section 3.3: prior knowledge is for cleartext; over TLS only ALPN chooses HTTP/2.
        if (tls == null && runtime.http2.priorKnowledge()) {
            pipeline.addLast("h2c-detector", new PriorKnowledgeDetector(runtime));
        }
        StrictRequestDecoder decoder = new StrictRequestDecoder(runtime.decoderConfig);
        pipeline.addLast(DECODER, decoder)
                .addLast(ENCODER, new HttpResponseEncoder())
                .addLast(CONNECTION, new Http1Connection(runtime, decoder, tls));
    }
}

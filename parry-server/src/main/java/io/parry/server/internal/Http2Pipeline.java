package io.parry.server.internal;

import io.netty.channel.ChannelPipeline;

/**
 * The one place HTTP/2 is installed on a connection: by {@link PriorKnowledgeDetector} for h2c on the
 * cleartext port, and by the TLS listener's ALPN handler when the client chose {@code h2}.
 */
final class Http2Pipeline {
    private Http2Pipeline() {}

    /**
     * Adds the HTTP/2 framing at the end of the pipeline; the connection speaks HTTP/2 from its next
     * byte. {@code tls} is the connection's TLS, {@code null} over cleartext.
     */
    static void configure(ChannelPipeline pipeline, ServerRuntime runtime, ConnectionTls tls) {
        pipeline.addLast("http2", Http2ServerConnection.create(runtime, tls));
    }
}

package io.parry.server.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.parry.server.Rejection;

/**
 * Sets up each accepted connection: refuses it at once beyond the connection limit, else installs
 * the strict decoder, the encoder and the connection handler, behind a detector of the HTTP/2
 * preface when h2c by prior knowledge is on.
 */
final class ServerInitializer extends ChannelInitializer<Channel> {
    static final String DECODER = "decoder";
    static final String ENCODER = "encoder";
    static final String CONNECTION = "connection";

    private final ServerRuntime runtime;

    ServerInitializer(ServerRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    protected void initChannel(Channel channel) {
        if (!runtime.connections.tryOpen(runtime.limits.maxConnections())) {
            runtime.rejections.record(Rejection.TOO_MANY_CONNECTIONS, channel.remoteAddress(), "connection limit");
            channel.close();
            return;
        }
        if (runtime.http2.priorKnowledge()) {
            channel.pipeline().addLast("h2c-detector", new PriorKnowledgeDetector(runtime));
        }
        StrictRequestDecoder decoder = new StrictRequestDecoder(runtime.decoderConfig);
        channel.pipeline()
                .addLast(DECODER, decoder)
                .addLast(ENCODER, new HttpResponseEncoder())
                .addLast(CONNECTION, new Http1Connection(runtime, decoder));
    }
}

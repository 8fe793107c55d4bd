package io.parry.server.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.parry.server.Rejection;

/**
 * Sets up each accepted connection: refuses it at once beyond the connection limit, else installs
 * the strict decoder, the encoder and the connection handler.
 */
final class ServerInitializer extends ChannelInitializer<Channel> {
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
        StrictRequestDecoder decoder = new StrictRequestDecoder(runtime.decoderConfig);
        channel.pipeline()
                .addLast("decoder", decoder)
                .addLast("encoder", new HttpResponseEncoder())
                .addLast("connection", new Http1Connection(runtime, decoder));
    }
}

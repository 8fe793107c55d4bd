package io.parry.server.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.parry.server.Rejection;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sets up each accepted connection: refuses it at once beyond the connection limit, else installs
 * the strict decoder, the encoder and the connection handler.
 */
final class ServerInitializer extends ChannelInitializer<Channel> {
    private final ServerRuntime runtime;
    private final ChannelGroup channels;
    private final AtomicInteger open = new AtomicInteger();

    ServerInitializer(ServerRuntime runtime, ChannelGroup channels) {
        this.runtime = runtime;
        this.channels = channels;
    }

    @Override
    protected void initChannel(Channel channel) {
        if (open.incrementAndGet() > runtime.limits.maxConnections()) {
            open.decrementAndGet();
            runtime.rejections.record(Rejection.TOO_MANY_CONNECTIONS, channel.remoteAddress(), "connection limit");
            channel.close();
            return;
        }
        channel.closeFuture().addListener(future -> open.decrementAndGet());
        channels.add(channel);
        StrictRequestDecoder decoder = new StrictRequestDecoder(runtime.decoderConfig);
        channel.pipeline()
                .addLast("decoder", decoder)
                .addLast("encoder", new HttpResponseEncoder())
                .addLast("connection", new Http1Connection(runtime, decoder));
    }

    int openConnections() {
        return open.get();
    }
}

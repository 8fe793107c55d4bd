package io.parry.benchmarks.capacity;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;

/** The pipeline of a {@link FixedCapacityServer} connection: HTTP/1.1, whole requests, then the line. */
final class FixedCapacityInitializer extends ChannelInitializer<SocketChannel> {
    private final ServiceLine line;

    FixedCapacityInitializer(ServiceLine line) {
        this.line = line;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        channel.pipeline()
                .addLast(new HttpServerCodec())
                .addLast(new HttpObjectAggregator(64 * 1024))
                .addLast(new FixedCapacityHandler(line));
    }
}

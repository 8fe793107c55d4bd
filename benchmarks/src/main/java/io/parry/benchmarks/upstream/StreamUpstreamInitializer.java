package io.parry.benchmarks.upstream;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;

/** Builds each connection's pipeline: the HTTP/1.1 codec, {@code 100-continue} answers, and the stream routes. */
final class StreamUpstreamInitializer extends ChannelInitializer<SocketChannel> {
    @Override
    protected void initChannel(SocketChannel channel) {
        channel.pipeline()
                .addLast(new HttpServerCodec())
                .addLast(new HttpServerExpectContinueHandler())
                .addLast(new StreamUpstreamHandler());
    }
}

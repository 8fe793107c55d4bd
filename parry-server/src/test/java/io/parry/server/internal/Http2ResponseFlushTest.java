package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.parry.http.HttpResponse;
import io.parry.server.ServerOptions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** HTTP/2 responses leave with as few flushes (system calls) as their frames allow. */
class Http2ResponseFlushTest {
    private final CompletableFuture<HttpResponse> answer = new CompletableFuture<>();
    private final FlushCount flushes = new FlushCount();
    private final ServerRuntime runtime = new ServerRuntime(
            ServerOptions.ofDefault(), (ctx, request) -> answer, new RequestListeners(List.of()), null);
    private final EmbeddedChannel channel = new EmbeddedChannel(flushes, Http2ServerConnection.create(runtime, null));

    @AfterEach
    void releaseEverything() {
        channel.finishAndReleaseAll();
    }

    @Test
    void writesAWholeResponseAnsweredAfterItsReadWithOneFlush() throws Exception {
        channel.writeInbound(Http2RequestBytes.get());
        drainOutbound();
        flushes.count = 0;

        answer.complete(HttpResponse.ofText("hello"));
        channel.runPendingTasks(); // Writes made outside a read are flushed after the event loop's batch.

        assertThat(flushes.count).isEqualTo(1);
        assertThat(flushes.writes).as("the response's HEADERS and DATA frames").isPositive();
    }

    private void drainOutbound() {
        for (Object out; (out = channel.readOutbound()) != null; ) {
            ReferenceCountUtil.release(out);
        }
        flushes.writes = 0;
    }

    /** Counts the flushes and writes that reach the socket. */
    private static final class FlushCount extends ChannelOutboundHandlerAdapter {
        int count;
        int writes;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof ByteBuf) {
                writes++;
            }
            ctx.write(msg, promise);
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            count++;
            ctx.flush();
        }
    }
}

package io.parry.proxy;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.parry.http.HttpHeaders;
import io.parry.transport.spi.BodyFlow;
import io.parry.transport.spi.InboundBody;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ObservedBodyTest {
    private static final BodyFlow NO_FLOW = new BodyFlow() {
        @Override
        public void pause() {}

        @Override
        public void resume() {}

        @Override
        public void demanded() {}
    };

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final InboundBody upstreamBody = new InboundBody(channel.eventLoop(), NO_FLOW, 5);
    private final List<Throwable> ends = new ArrayList<>();
    private final ObservedBody body = new ObservedBody(upstreamBody, 5, ends::add);

    @AfterEach
    void releaseEverything() {
        upstreamBody.discard();
        channel.finishAndReleaseAll();
    }

    @Test
    void reportsOneSuccessfulEndWhenTheWholeBodyIsTaken() {
        upstreamBody.onChunk(Unpooled.copiedBuffer("hello", US_ASCII));
        upstreamBody.onEnd(HttpHeaders.empty());

        ByteBuf whole = body.takeReceived();
        try {
            assertThat(whole.toString(US_ASCII)).isEqualTo("hello");
        } finally {
            whole.release();
        }
        assertThat(body.takeReceived()).isNull();
        assertThat(ends).hasSize(1).containsOnlyNulls();
    }

    @Test
    void leavesABodyStillArrivingToBeStreamedWithoutEndingIt() {
        ByteBuf chunk = Unpooled.copiedBuffer("hel", US_ASCII);
        upstreamBody.onChunk(chunk);

        assertThat(body.takeReceived()).isNull();

        assertThat(ends).isEmpty();
        upstreamBody.discard();
        assertThat(chunk.refCnt()).isZero();
    }
}

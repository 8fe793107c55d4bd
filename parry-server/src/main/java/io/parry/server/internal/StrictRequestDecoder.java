package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ByteProcessor;
import java.util.List;

/**
 * Netty's request decoder, made strict where Netty is lenient, and aware of when a header block
 * started (for the header-read timeout).
 *
 * <p>Netty joins obsolete line folding (a header line starting with a space or tab) into the
 * previous value; RFC 9112, section 5.2 lets a server reject it instead, and Parry does, because
 * two parsers that disagree on folding are a request-smuggling risk. The decoder gives no hook for
 * folded lines, so the header block is scanned here, before Netty parses it, one byte state at a
 * time and without copying: new bytes are scanned once, as they arrive.
 */
final class StrictRequestDecoder extends HttpRequestDecoder {
    private final HeaderScan scan = new HeaderScan();
    private int unscanned;
    private boolean awaitingMessage = true;
    private long headerStartNanos;

    StrictRequestDecoder(HttpDecoderConfig config) {
        super(config);
    }

    /** When the first byte of the current header block arrived, or 0 when no header block is being read. */
    long headerStartNanos() {
        return headerStartNanos;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf) {
            unscanned += ((ByteBuf) msg).readableBytes();
        }
        super.channelRead(ctx, msg);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
        if (awaitingMessage) {
            int from = Math.max(buffer.readerIndex(), buffer.writerIndex() - unscanned);
            if (from < buffer.writerIndex()) {
                if (headerStartNanos == 0) {
                    headerStartNanos = System.nanoTime();
                }
                scan.scan(buffer, from, buffer.writerIndex() - from);
            }
        }
        unscanned = 0;
        int before = out.size();
        super.decode(ctx, buffer, out);
        for (int i = before; i < out.size(); i++) {
            Object decoded = out.get(i);
            if (decoded instanceof HttpMessage) {
                onMessage((HttpMessage) decoded);
            }
            if (decoded instanceof LastHttpContent) {
                // The next request's header block starts at the reader index: scan it from there.
                awaitingMessage = true;
                unscanned = buffer.readableBytes();
                scan.reset();
            }
        }
    }

    private void onMessage(HttpMessage message) {
        awaitingMessage = false;
        headerStartNanos = 0;
        if (scan.folded && message.decoderResult().isSuccess()) {
            message.setDecoderResult(DecoderResult.failure(new IllegalArgumentException("obsolete line folding")));
        }
    }

    /** Walks a header block for a line that starts with whitespace, and stops at its blank line. */
    private static final class HeaderScan implements ByteProcessor {
        private static final int BEFORE_REQUEST_LINE = 0;
        private static final int REQUEST_LINE = 1;
        private static final int LINE_START = 2;
        private static final int FIELD_LINE = 3;
        private static final int BLANK_LINE_CR = 4;
        private static final int DONE = 5;

        private int state = BEFORE_REQUEST_LINE;
        boolean folded;

        void reset() {
            state = BEFORE_REQUEST_LINE;
            folded = false;
        }

        void scan(ByteBuf buffer, int from, int length) {
            if (state != DONE) {
                buffer.forEachByte(from, length, this);
            }
        }

        @Override
        public boolean process(byte b) {
            switch (state) {
                case BEFORE_REQUEST_LINE:
                    state = b == '\r' || b == '\n' ? BEFORE_REQUEST_LINE : REQUEST_LINE;
                    return true;
                case REQUEST_LINE:
                case FIELD_LINE:
                    if (b == '\n') {
                        state = LINE_START;
                    }
                    return true;
                case LINE_START:
                    return lineStart(b);
                case BLANK_LINE_CR:
                    state = b == '\n' ? DONE : FIELD_LINE;
                    return state != DONE;
                default:
                    return false;
            }
        }

        private boolean lineStart(byte b) {
            if (b == ' ' || b == '\t') {
                folded = true;
                state = FIELD_LINE;
            } else if (b == '\r') {
                state = BLANK_LINE_CR;
            } else if (b == '\n') {
                state = DONE;
                return false;
            } else {
                state = FIELD_LINE;
            }
            return true;
        }
    }
}

package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMessageDecoderResult;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ByteProcessor;
import io.parry.transport.spi.ReceivedFields;
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
 *
 * <p>A header block that repeats the connection's last one byte for byte, with its whole body at hand, is not parsed
 * again: the request decoded from it the first time is handed on again, then the body as Netty would hand it on
 * ({@link RepeatedHead} says which heads are kept). One that differs from it in one field's value alone is not parsed
 * either: it becomes a new request, the kept one's with that value. Every other head takes the full path.
 */
final class StrictRequestDecoder extends HttpRequestDecoder {
    /** Stops at the whitespace Netty would take for a space between the request line's parts. */
    private static final ByteProcessor SINGLE_SPACE = b -> !isOtherWhitespace(b);

    /** Extension bytes a chunked request body may carry in all. */
    private static final int EXTENSIONS_ALLOWANCE = 16 * 1024;
    /** The framing of one piece of chunk data: a chunk-size line of 16 digits, and two CRLFs. */
    private static final int FRAMING_PER_PIECE = 20;

    private boolean scanStarted;
    private boolean atLineStart;
    private boolean afterBlankCr;
    private boolean scanDone;
    private boolean folded;
    private boolean inRequestLine;
    private boolean oddWhitespace;
    private int unscanned;
    private boolean awaitingMessage = true;
    private long headerStartNanos;
    /**
     * When the latest read of bytes began ({@link System#nanoTime()}): the one clock reading of a read, which the
     * header block it starts and the requests it completes take as their time, as the baseline reads no clock.
     */
    private long readNanos;

    private boolean countingFraming;
    private long framingBytes;
    private long chunkPieces;
    /** The message being decoded asked for an upgrade: once it ends, bytes are held until its answer. */
    private boolean upgradeAsked;
    /** Decoding waits for the answer to an upgrade request; the bytes after it stay in the cumulation. */
    private boolean holding;

    /** The last head decoded, when it may be taken again for the same bytes. */
    private final RepeatedHead repeated;

    private final HttpHeadersFactory trailersFactory;

    StrictRequestDecoder(HttpDecoderConfig config) {
        super(config);
        this.repeated = new RepeatedHead(config.getMaxChunkSize(), config.getMaxHeaderSize());
        this.trailersFactory = config.getTrailersFactory();
    }

    /** The head just decoded will not be accepted: the same bytes again take the full path. */
    void forgetRepeatedHead() {
        repeated.forget();
    }

    /**
     * Whether decoding stopped after a request that asked for an upgrade (HTTP/1.1, no body, {@code
     * Upgrade} and {@code Connection: upgrade}; RFC 9110, section 7.8): what follows it may not be
     * HTTP/1.1, so it is not decoded until the answer is known. The bytes stay here: they reach the
     * next handler when this decoder is removed (the connection was taken over), or are decoded as
     * requests after {@link #resumeDecoding}.
     */
    boolean isHolding() {
        return holding;
    }

    /** The upgrade was not given: decodes the bytes held since the request that asked for it. */
    void resumeDecoding(ChannelHandlerContext ctx) {
        holding = false;
        if (internalBuffer().isReadable()) {
            try {
                channelRead(ctx, Unpooled.EMPTY_BUFFER);
            } catch (Exception e) {
                ctx.fireExceptionCaught(e);
            }
            ctx.fireChannelReadComplete();
        }
    }

    /** When the first byte of the current header block arrived, or 0 when no header block is being read. */
    long headerStartNanos() {
        return headerStartNanos;
    }

    /** When the latest read of bytes began, as a {@link System#nanoTime()} reading: the time its requests arrived. */
    long readNanos() {
        return readNanos;
    }

    /**
     * Netty upper-cases the version before it compares it; RFC 9112, section 2.3 makes the token
     * case-sensitive ({@code HTTP-name = %s"HTTP"}, one digit each side of the dot), so anything else
     * is refused here, where the line's own text is still at hand.
     */
    @Override
    protected HttpMessage createMessage(String[] initialLine) throws Exception {
        if (!isVersionToken(initialLine[2])) {
            throw new IllegalArgumentException("malformed HTTP version");
        }
        return super.createMessage(initialLine);
    }

    private static boolean isVersionToken(String version) {
        return version.length() == 8
                && version.startsWith("HTTP/")
                && isDigit(version.charAt(5))
                && version.charAt(6) == '.'
                && isDigit(version.charAt(7));
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf) {
            unscanned += ((ByteBuf) msg).readableBytes();
            readNanos = System.nanoTime();
        }
        super.channelRead(ctx, msg);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
        if (holding) {
            return;
        }
        // No byte of a new head has been scanned, so Netty's decoder has taken none either: it is where a repeated
        // head leaves it.
        boolean fresh = awaitingMessage && !scanStarted;
        if (fresh && takeRepeated(buffer, out)) {
            return;
        }
        if (awaitingMessage) {
            int from = Math.max(buffer.readerIndex(), buffer.writerIndex() - unscanned);
            if (from < buffer.writerIndex()) {
                if (headerStartNanos == 0) {
                    headerStartNanos = readNanos;
                }
                scanHeaderBlock(buffer, from, buffer.writerIndex() - from);
            }
        }
        unscanned = 0;
        int before = out.size();
        int readBefore = buffer.readerIndex();
        super.decode(ctx, buffer, out);
        boolean bodyOnly = true;
        long data = 0;
        for (int i = before; i < out.size(); i++) {
            Object decoded = out.get(i);
            if (decoded instanceof HttpMessage) {
                HttpMessage message = (HttpMessage) decoded;
                onMessage(message);
                bodyOnly = false;
                keepOrForget(buffer, fresh, readBefore, message);
            }
            if (decoded instanceof HttpContent) {
                data += ((HttpContent) decoded).content().readableBytes();
                chunkPieces++;
            }
            if (decoded instanceof LastHttpContent) {
                if (((LastHttpContent) decoded).decoderResult().isFailure()) {
                    repeated.forget(); // Netty discards the rest: nothing may be taken as a request again.
                }
                // The next request's header block starts at the reader index: scan it from there.
                awaitingMessage = true;
                unscanned = buffer.readableBytes();
                resetScan();
                bodyOnly = false;
                holding = upgradeAsked;
            }
        }
        if (countingFraming && bodyOnly) {
            countFraming(buffer.readerIndex() - readBefore - data, out);
        }
    }

    /**
     * Hands on the kept request and its body when the readable bytes start with the kept head and hold its body; the
     * decoder is then as after that request's {@link LastHttpContent}, with the rest of the bytes still to scan.
     */
    private boolean takeRepeated(ByteBuf buffer, List<Object> out) {
        HttpRequest request = repeated.match(buffer);
        if (request == null) {
            return false;
        }
        buffer.skipBytes(repeated.length());
        int body = repeated.bodyLength();
        // Not chunked, no upgrade, and the line and fields the checks read are those that passed them.
        beginMessage(false);
        out.add(request);
        // As Netty's decoder ends a message whose body it reads in one piece (or that has none).
        out.add(
                body == 0
                        ? LastHttpContent.EMPTY_LAST_CONTENT
                        : new DefaultLastHttpContent(buffer.readRetainedSlice(body), trailersFactory));
        awaitingMessage = true;
        unscanned = buffer.readableBytes();
        resetScan();
        return true;
    }

    /**
     * Keeps a head Netty decoded, when all of its bytes were in the buffer for this decoding (from {@code from} up to
     * the reader index) and it was accepted so far; else keeps none, so a head that failed, or one that differs from
     * it, is never taken for one kept before.
     */
    private void keepOrForget(ByteBuf buffer, boolean fresh, int from, HttpMessage message) {
        if (fresh && message.decoderResult().isSuccess() && buffer.getByte(from) > ' ') {
            repeated.keep(buffer, from, buffer.readerIndex(), message);
        } else {
            repeated.forget();
        }
    }

    /**
     * Adds the bytes of a chunked body that were not data (chunk-size lines with their extensions,
     * CRLFs) and fails the body once they pass what its chunks need plus {@value
     * #EXTENSIONS_ALLOWANCE} bytes: extensions are otherwise unbounded, as each line is bounded on its
     * own but not their number (Node.js set such a limit for CVE-2024-22019).
     */
    private void countFraming(long framing, List<Object> out) {
        framingBytes += framing;
        if (framingBytes > EXTENSIONS_ALLOWANCE + FRAMING_PER_PIECE * chunkPieces) {
            countingFraming = false;
            HttpContent failure = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
            failure.setDecoderResult(DecoderResult.failure(new TooLongFrameException("chunk extensions too long")));
            out.add(failure);
        }
    }

    private void onMessage(HttpMessage message) {
        beginMessage(ReceivedFields.of(message.headers()).isChunked());
        if (!message.decoderResult().isSuccess()) {
            return;
        }
        upgradeAsked = asksForUpgrade(message);
        if (folded) {
            message.setDecoderResult(DecoderResult.failure(new IllegalArgumentException("obsolete line folding")));
        } else if (oddWhitespace || !isSingleSpaced((HttpRequest) message)) {
            message.setDecoderResult(
                    DecoderResult.failure(new IllegalArgumentException("request line not split by single spaces")));
        }
    }

    /** The state of a message whose head has been read, before its own checks. */
    private void beginMessage(boolean chunked) {
        awaitingMessage = false;
        headerStartNanos = 0;
        countingFraming = chunked;
        framingBytes = 0;
        chunkPieces = 0;
        upgradeAsked = false;
    }

    private boolean asksForUpgrade(HttpMessage message) {
        ReceivedFields fields = ReceivedFields.of(message.headers());
        // Upgrade first: its absence, nearly always, is one bit of the received fields.
        return fields.contains(HttpHeaderNames.UPGRADE)
                && HttpVersion.HTTP_1_1.equals(message.protocolVersion())
                && fields.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true)
                && !countingFraming
                && !fields.contains(HttpHeaderNames.TRANSFER_ENCODING)
                && isZeroOrAbsent(fields.get(HttpHeaderNames.CONTENT_LENGTH));
    }

    private static boolean isZeroOrAbsent(String contentLength) {
        return contentLength == null || contentLength.equals("0");
    }

    /**
     * Netty splits the request line on runs of whitespace; RFC 9112, section 3 separates its three
     * parts by exactly one space each, and a recipient that splits differently from the next hop is
     * a smuggling risk. The line's length, which the decoder measured, tells whether a run was
     * longer than one; the scan finds whitespace other than a space.
     */
    private static boolean isSingleSpaced(HttpRequest request) {
        if (!(request.decoderResult() instanceof HttpMessageDecoderResult)) {
            return true;
        }
        int lineLength = ((HttpMessageDecoderResult) request.decoderResult()).initialLineLength();
        return lineLength
                == request.method().name().length()
                        + request.uri().length()
                        + request.protocolVersion().text().length()
                        + 2;
    }

    /**
     * Walks a header block from line to line for a line that starts with whitespace, and stops at its
     * blank line. Only the byte after each LF is inspected; the LF search itself is Netty's SWAR scan,
     * so the cost is a few instructions per line, not per byte. (The scan's state lives in this
     * decoder's fields rather than an object of its own: every idle connection holds one.)
     */
    private void scanHeaderBlock(ByteBuf buffer, int from, int length) {
        int index = from;
        int end = from + length;
        while (!scanDone && index < end) {
            if (!scanStarted) {
                byte b = buffer.getByte(index);
                scanStarted = b != '\r' && b != '\n';
                inRequestLine = scanStarted;
                oddWhitespace = b == ' ' || isOtherWhitespace(b);
                index++;
            } else if (afterBlankCr) {
                afterBlankCr = false;
                scanDone = buffer.getByte(index) == '\n';
                index++;
            } else if (atLineStart) {
                atLineStart = false;
                lineStart(buffer.getByte(index));
                index++;
            } else {
                int lf = buffer.indexOf(index, end, (byte) '\n');
                if (inRequestLine) {
                    scanRequestLine(buffer, index, lf < 0 ? end : lf);
                    inRequestLine = lf < 0;
                }
                if (lf < 0) {
                    return;
                }
                atLineStart = true;
                index = lf + 1;
            }
        }
    }

    private void scanRequestLine(ByteBuf buffer, int from, int to) {
        if (!oddWhitespace && from < to) {
            oddWhitespace = buffer.forEachByte(from, to - from, SINGLE_SPACE) >= 0;
        }
    }

    private static boolean isOtherWhitespace(byte b) {
        return b == '\t' || b == 0x0b || b == 0x0c;
    }

    private void lineStart(byte b) {
        if (b == ' ' || b == '\t') {
            folded = true;
        } else if (b == '\r') {
            afterBlankCr = true;
        } else if (b == '\n') {
            scanDone = true;
        }
    }

    private void resetScan() {
        scanStarted = false;
        atLineStart = false;
        afterBlankCr = false;
        scanDone = false;
        folded = false;
        inRequestLine = false;
        oddWhitespace = false;
    }
}

package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2FrameSizePolicy;
import io.netty.handler.codec.http2.Http2FrameWriter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.Http2StreamVisitor;
import io.netty.util.concurrent.EventExecutor;
import io.parry.http.HttpData;
import io.parry.http.HttpResponse;
import io.parry.server.Http2Options;
import io.parry.server.Rejection;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP/2 framing of one connection (RFC 9113): Netty's connection handler does the frames,
 * HPACK, flow-control accounting and stream states; this class gives each request stream an {@link
 * Http2StreamFraming}, which drives the same {@link Exchange} an HTTP/1.1 request does.
 *
 * <p>It also defends the connection. Netty's own limits catch rapid reset, resets the server is made
 * to send, CONTINUATION floods, HPACK bombs, empty DATA floods and unread control frames; this class
 * adds a rate limit on PING and SETTINGS, the zero-window stall and the idle and request deadlines
 * its {@link ConnectionSweeper} asks about, and counts every connection error by its {@link
 * Rejection}. Every method runs on the connection's event loop.
 */
final class Http2ServerConnection extends Http2ConnectionHandler implements Http2FrameListener, SweptConnection {
    static final String PROTOCOL = "HTTP/2.0";
    private static final Logger log = LoggerFactory.getLogger(Http2ServerConnection.class);
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    final ServerRuntime runtime;
    final Http2Options options;
    /** The connection's TLS, {@code null} over cleartext. */
    final ConnectionTls tls;

    private final Http2Connection.PropertyKey framingKey;
    /** Netty's flow controller of the response bytes, held here as the encoder reaches it through two decorators. */
    private final Http2RemoteFlowController responseFlow;

    private final Http2Stream connectionStream;
    /**
     * The encoder's HPACK state, which {@link #writeWhole} encodes with: Netty's frame writer gives it as its headers'
     * configuration. {@code null} if a frame writer ever does not, and every response then goes through the encoder.
     */
    private final Http2HeadersEncoder hpack;
    /** The largest frame the client takes (its SETTINGS_MAX_FRAME_SIZE), as the frame writer knows it. */
    private final Http2FrameSizePolicy frameSizes;

    private final Http2StreamVisitor resumeWriting;
    private final ClientStreamHistory history = new ClientStreamHistory();
    /** Reads this connection's request header blocks, one at a time. */
    final Http2Requests requests = new Http2Requests();
    /** The header block of the last small fixed response, for the next stream that sends it. */
    private final FixedResponseHeaders fixedHeaders = new FixedResponseHeaders();

    private final long id;
    private String idText;
    private ChannelHandlerContext ctx;
    private ConnectionSweeper sweeper;
    private SweptConnection previous;
    private SweptConnection next;
    private boolean inRead;
    /** Whether a task will flush what was written outside this connection's reads. */
    private boolean flushScheduled;

    private Runnable scheduledFlush;
    private long lastActivityNanos;
    private long unwritableSinceNanos;
    private long connectionStalledSinceNanos;
    private long controlWindowStartNanos;
    private int controlFrames;
    private boolean windowOpened;
    private int oversizeHeaderLists;
    private boolean connectionErrorCounted;
    /** Streams whose response waits for the stream to be writable again (see {@link #writerWaiting}). */
    private int waitingWriters;

    private Http2ServerConnection(
            Http2ConnectionDecoder decoder,
            Http2ConnectionEncoder encoder,
            Http2Settings settings,
            ServerRuntime runtime,
            ConnectionTls tls) {
        super(decoder, encoder, settings);
        this.runtime = runtime;
        this.tls = tls;
        this.options = runtime.http2;
        this.id = runtime.nextConnectionId();
        this.framingKey = connection().newKey();
        this.responseFlow = encoder.flowController();
        this.connectionStream = connection().connectionStream();
        Http2FrameWriter.Configuration frames = encoder.frameWriter().configuration();
        this.hpack = frames.headersConfiguration() instanceof Http2HeadersEncoder encoding ? encoding : null;
        this.frameSizes = frames.frameSizePolicy();
        connection().addListener(new Http2ConnectionAdapter() {
            @Override
            public void onStreamAdded(Http2Stream stream) {
                history.opened(stream.id());
            }

            @Override
            public void onStreamClosed(Http2Stream stream) {
                if (stream.isResetSent()) {
                    history.resetByServer(stream.id());
                }
                Http2StreamFraming framing = stream.removeProperty(framingKey);
                if (framing != null) {
                    framing.streamClosed();
                }
                // The bytes it had queued no longer hold the connection window (Netty's flow controller
                // dropped them before this listener, added after it, is told).
                wakeWaitingWriters();
                // The idle clock matters once no stream is left (whether Netty counted this one out yet or not).
                if (connection().numActiveStreams() <= 1) {
                    lastActivityNanos = System.nanoTime();
                }
            }
        });
        this.resumeWriting = stream -> {
            Http2StreamFraming framing = stream.getProperty(framingKey);
            if (framing != null) {
                framing.resumeWriting();
            }
            return true;
        };
    }

    /**
     * A handler for a new connection, with the server's HTTP/2 options and defences; {@code tls} is
     * the connection's TLS, {@code null} over cleartext.
     */
    static Http2ServerConnection create(ServerRuntime runtime, ConnectionTls tls) {
        return new Builder(runtime, tls).build();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        super.handlerAdded(ctx);
        if (ctx.channel().isActive()) {
            started(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        super.channelActive(ctx);
        started(ctx);
    }

    /** Joins the sweeper's list and opens the connection window past the 65535 bytes RFC 9113 starts with. */
    private void started(ChannelHandlerContext ctx) throws Http2Exception {
        if (sweeper != null) {
            return;
        }
        lastActivityNanos = System.nanoTime();
        sweeper = runtime.connections.sweeper(ctx.channel().eventLoop());
        sweeper.add(this);
        if (!windowOpened) {
            windowOpened = true;
            Http2Stream connectionStream = connection().connectionStream();
            int delta = options.initialConnectionWindow()
                    - connection().local().flowController().windowSize(connectionStream);
            if (delta > 0) {
                connection().local().flowController().incrementWindowSize(connectionStream, delta);
            }
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (sweeper != null) {
            sweeper.remove(this);
            sweeper = null;
            runtime.connections.closed();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        inRead = true;
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        inRead = false;
        super.channelReadComplete(ctx); // Flushes what the read wrote.
    }

    /**
     * The flow controller tells a stream of a change only against the writability it last recorded,
     * and a channel may turn unwritable and back between two of its looks (TLS announces the bytes it
     * holds in a later task): a response that saw the channel unwritable then waits for a change that
     * never comes. So every stream with a response to pull is woken whenever the channel is writable.
     */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        unwritableSinceNanos = ctx.channel().isWritable() ? 0 : System.nanoTime();
        super.channelWritabilityChanged(ctx);
        if (ctx.channel().isWritable() && connection().numActiveStreams() > 0) {
            connection().forEachActiveStream(resumeWriting);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        if (cause instanceof IOException) {
            log.debug("Connection {} failed: {}", connectionId(), cause.toString());
            ctx.close();
            return;
        }
        super.exceptionCaught(ctx, cause);
    }

    /**
     * Flushes what was written once the work at hand is done: at the end of this connection's read, or, for writes
     * made outside it (a proxied body arriving on the upstream's channel, a handler finishing on a worker), in a
     * task after the event loop's current batch. A proxied body's chunks then leave as full DATA frames and TLS
     * records, one flush per upstream read, instead of a flush per chunk, which over TLS split each 16,393-byte
     * frame into a full record and a 9-byte one.
     */
    void flushUnlessReading() {
        if (inRead || flushScheduled) {
            return;
        }
        flushScheduled = true;
        if (scheduledFlush == null) {
            scheduledFlush = this::scheduledFlush;
        }
        ctx.executor().execute(scheduledFlush);
    }

    private void scheduledFlush() {
        flushScheduled = false;
        flush(ctx);
    }

    @Override
    protected void onConnectionError(
            ChannelHandlerContext ctx, boolean outbound, Throwable cause, Http2Exception http2Ex) {
        if (http2Ex != null && !connectionErrorCounted) {
            // Frames already read may raise more errors before the close: the connection counts once.
            connectionErrorCounted = true;
            runtime.rejections.record(Http2Rejections.of(http2Ex), ctx.channel().remoteAddress(), http2Ex.getMessage());
        } else if (http2Ex == null && !(cause instanceof IOException)) {
            log.warn("Connection {} failed", connectionId(), cause);
        }
        super.onConnectionError(ctx, outbound, cause, http2Ex);
    }

    /**
     * Gives the stream errors Netty raises on a HEADERS frame the codes RFC 9113, section 5.1 asks
     * for: STREAM_CLOSED on a stream whose request had ended, whatever else is wrong with the frame
     * (Netty checks a second header block as trailers first); and
     * for a stream that no longer exists, a connection error unless the server reset it.
     */
    @Override
    protected void onStreamError(
            ChannelHandlerContext ctx, boolean outbound, Throwable cause, Http2Exception.StreamException error) {
        int streamId = error.streamId();
        Http2Stream stream = connection().stream(streamId);
        if (!outbound && error.error() == Http2Error.PROTOCOL_ERROR && requestEnded(stream)) {
            error = (Http2Exception.StreamException) Http2Exception.streamError(
                    streamId, Http2Error.STREAM_CLOSED, cause, "Frame on half-closed (remote) stream %d", streamId);
        } else if (!outbound && stream == null && isUnknownStreamHeaders(error)) {
            if (history.wasSkipped(streamId)) {
                onError(
                        ctx,
                        false,
                        Http2Exception.connectionError(
                                Http2Error.PROTOCOL_ERROR,
                                "HEADERS on stream %d, below the last the client opened",
                                streamId));
                return;
            }
            if (!history.wasResetByServer(streamId)) {
                onError(
                        ctx,
                        false,
                        Http2Exception.connectionError(
                                Http2Error.STREAM_CLOSED, "HEADERS on closed stream %d", streamId));
                return;
            }
        }
        super.onStreamError(ctx, outbound, cause, error);
    }

    private boolean requestEnded(Http2Stream stream) {
        Http2StreamFraming framing = stream == null ? null : stream.getProperty(framingKey);
        return framing != null && framing.requestEnded();
    }

    private static boolean isUnknownStreamHeaders(Http2Exception.StreamException error) {
        String message = error.getMessage();
        return error.error() == Http2Error.STREAM_CLOSED
                && message != null
                && message.startsWith("Received HEADERS frame for an unknown stream");
    }

    /**
     * A header list over the limit gets 431, once. Netty stops storing fields past the limit but
     * decodes the whole block, and a few bytes of references to a large dynamic table entry decode
     * to megabytes (an HPACK bomb): a second oversize list ends the connection.
     */
    @Override
    protected void handleServerHeaderDecodeSizeError(ChannelHandlerContext ctx, Http2Stream stream) {
        if (++oversizeHeaderLists > 1) {
            onError(
                    ctx,
                    false,
                    Http2Exception.connectionError(
                            Http2Error.ENHANCE_YOUR_CALM,
                            "Header size exceeded max allowed size again (an HPACK bomb?)"));
            return;
        }
        runtime.rejections.record(Rejection.HEADERS_TOO_LARGE, ctx.channel().remoteAddress(), "header list too large");
        super.handleServerHeaderDecodeSizeError(ctx, stream);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding, boolean end)
            throws Http2Exception {
        Http2Stream stream = connection().stream(streamId);
        if (stream == null) {
            return; // Reset already, or above the last stream id of a GOAWAY.
        }
        Http2StreamFraming framing = stream.getProperty(framingKey);
        if (framing != null) {
            framing.trailersRead(headers, end);
            return;
        }
        long now = System.nanoTime();
        lastActivityNanos = now;
        framing = new Http2StreamFraming(this, stream);
        stream.setProperty(framingKey, framing);
        framing.headRead(headers, end, now, true);
    }

    @Override
    public void onHeadersRead(
            ChannelHandlerContext ctx,
            int streamId,
            Http2Headers headers,
            int streamDependency,
            short weight,
            boolean exclusive,
            int padding,
            boolean end)
            throws Http2Exception {
        onHeadersRead(ctx, streamId, headers, padding, end);
    }

    /** After {@code Upgrade: h2c}: the request that asked for it is stream 1, half-closed by the client already. */
    void upgradedRequest(Http2Headers headers) {
        Http2Stream stream = connection().stream(1);
        Http2StreamFraming framing = new Http2StreamFraming(this, stream);
        stream.setProperty(framingKey, framing);
        framing.headRead(headers, true, System.nanoTime(), false);
        flushUnlessReading();
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean end)
            throws Http2Exception {
        Http2Stream stream = connection().stream(streamId);
        Http2StreamFraming framing = stream == null ? null : stream.getProperty(framingKey);
        if (framing == null) {
            return data.readableBytes() + padding;
        }
        return framing.dataRead(data, padding, end);
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
        Http2Stream stream = connection().stream(streamId);
        Http2StreamFraming framing = stream == null ? null : stream.getProperty(framingKey);
        if (framing != null) {
            framing.resetByClient(errorCode);
        }
    }

    /** Netty applied the settings first: a larger initial window (RFC 9113, section 6.9.2) may let responses go on. */
    @Override
    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) throws Http2Exception {
        controlFrameRead();
        wakeWaitingWriters();
    }

    @Override
    public void onPingRead(ChannelHandlerContext ctx, long data) throws Http2Exception {
        controlFrameRead();
    }

    /**
     * Counts PING and SETTINGS frames per second: each makes the server answer, so a client that
     * sends them without end costs the server work for nothing.
     */
    private void controlFrameRead() throws Http2Exception {
        long now = System.nanoTime();
        if (now - controlWindowStartNanos >= SECOND) {
            controlWindowStartNanos = now;
            controlFrames = 0;
        }
        if (++controlFrames > options.maxControlFramesPerSecond()) {
            throw Http2Exception.connectionError(
                    Http2Error.ENHANCE_YOUR_CALM,
                    "Too many control frames: more than %d PING and SETTINGS frames in a second",
                    options.maxControlFramesPerSecond());
        }
    }

    @Override
    public void onPriorityRead(
            ChannelHandlerContext ctx, int streamId, int dependency, short weight, boolean exclusive) {}

    @Override
    public void onSettingsAckRead(ChannelHandlerContext ctx) {}

    @Override
    public void onPingAckRead(ChannelHandlerContext ctx, long data) {}

    @Override
    public void onPushPromiseRead(
            ChannelHandlerContext ctx, int streamId, int promisedStreamId, Http2Headers headers, int padding) {}

    @Override
    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {}

    /** Netty added the credit first: a response waiting for it, on that stream or (stream 0) any, pulls more. */
    @Override
    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement) {
        if (waitingWriters == 0) {
            return;
        }
        if (streamId == 0) {
            wakeWaitingWriters();
            return;
        }
        Http2Stream stream = connection().stream(streamId);
        Http2StreamFraming framing = stream == null ? null : stream.getProperty(framingKey);
        if (framing != null) {
            framing.writabilityChanged();
        }
    }

    @Override
    public void onUnknownFrame(
            ChannelHandlerContext ctx, byte frameType, int streamId, Http2Flags flags, ByteBuf payload) {}

    boolean isWritable(Http2Stream stream) {
        return responseFlow.isWritable(stream);
    }

    /**
     * A stream's response starts or stops waiting to be writable. A stream turns writable again only
     * when its window or the connection's grows, another stream's queued bytes are dropped, or the
     * channel turns writable; this connection wakes the waiting ones then. Netty's flow controller could
     * tell each stream of each change through a listener, but would then check every stream's
     * writability on every frame queued and every stream opened and closed, a cost the many streams
     * that never wait would pay.
     */
    void writerWaiting(boolean waiting) {
        waitingWriters += waiting ? 1 : -1;
    }

    private void wakeWaitingWriters() {
        if (waitingWriters == 0) {
            return;
        }
        try {
            connection().forEachActiveStream(resumeWriting);
        } catch (Http2Exception e) {
            onError(ctx, false, e);
        }
    }

    /** Resets a stream the server gives up on, and flushes the RST_STREAM frame. */
    void reset(Http2Stream stream, Http2Error error) {
        resetStream(ctx, stream.id(), error.code(), ctx.newPromise());
        flushUnlessReading();
    }

    /**
     * Whether a response with a body of {@code length} bytes may leave whole now, as {@link WholeResponseFrames}:
     * when Netty would send it at once too, as nothing of the stream waits in its flow controller, both windows hold
     * the body (RFC 9113, section 6.9.1) and the channel is writable.
     */
    boolean mayWriteWhole(Http2Stream stream, int length) {
        Http2Stream.State state = stream.state();
        return hpack != null
                && length <= WholeResponseFrames.MAX_BODY_BYTES
                && (state == Http2Stream.State.OPEN || state == Http2Stream.State.HALF_CLOSED_REMOTE)
                && ctx.channel().isWritable()
                && !responseFlow.hasFlowControlled(stream)
                && responseFlow.windowSize(stream) >= length
                && responseFlow.windowSize(connectionStream) >= length;
    }

    /**
     * Writes a response that {@link #mayWriteWhole} let leave whole, past Netty's encoder and flow controller, doing
     * what they would: the header block is encoded by the connection's HPACK encoder and the stream marked as having
     * sent its headers, both windows are debited by the body, and the stream's side closes once the frames have left.
     * Headers HPACK refuses are a stream error, as Netty's encoder makes them.
     */
    void writeWhole(Http2Stream stream, Http2Headers headers, HttpData body, ChannelPromise promise) {
        ByteBuf frames;
        try {
            frames = WholeResponseFrames.of(ctx.alloc(), hpack, frameSizes.maxFrameSize(), stream.id(), headers, body);
            responseFlow.incrementWindowSize(connectionStream, -body.length());
            responseFlow.incrementWindowSize(stream, -body.length());
        } catch (Http2Exception e) {
            promise.setFailure(e);
            onError(ctx, true, e);
            return;
        }
        stream.headersSent(false);
        ctx.write(frames, promise);
        closeStreamLocal(stream, promise);
    }

    /** The HTTP/2 header block of this response, with a body of {@code length} bytes (-1 when unknown). */
    Http2Headers responseHeaders(HttpResponse response, long length) {
        return fixedHeaders.of(response, length, HttpDate.now());
    }

    ChannelHandlerContext context() {
        return ctx;
    }

    @Override
    public void checkDeadlines(long now) {
        if (!ctx.channel().isActive()) {
            return;
        }
        if (passed(unwritableSinceNanos, runtime.writeNanos, now)) {
            runtime.rejections.record(Rejection.WRITE_TIMEOUT, ctx.channel().remoteAddress(), "client not reading");
            ctx.close();
            return;
        }
        if (connection().numActiveStreams() == 0) {
            if (passed(lastActivityNanos, runtime.idleNanos, now)) {
                log.debug("Connection {} idle, closing", connectionId());
                goAwayAndClose(Http2Error.NO_ERROR);
            }
            return;
        }
        if (connectionStalled(now)) {
            return;
        }
        try {
            connection().forEachActiveStream(stream -> {
                Http2StreamFraming framing = stream.getProperty(framingKey);
                if (framing != null) {
                    framing.checkDeadlines(now);
                }
                return true;
            });
        } catch (Http2Exception e) {
            onError(ctx, false, e);
        }
    }

    /**
     * Whether the client kept the connection window at zero, with response data queued, past the
     * stall timeout: the connection then ends, freeing what was queued.
     */
    private boolean connectionStalled(long now) {
        long timeout = options.stallTimeout().toNanos();
        Http2Stream connectionStream = connection().connectionStream();
        if (timeout == 0 || encoder().flowController().windowSize(connectionStream) > 0 || !anyQueued()) {
            connectionStalledSinceNanos = 0;
            return false;
        }
        if (connectionStalledSinceNanos == 0) {
            connectionStalledSinceNanos = now;
            return false;
        }
        if (now - connectionStalledSinceNanos < timeout) {
            return false;
        }
        runtime.rejections.record(
                Rejection.HTTP2_FLOW_CONTROL_STALL, ctx.channel().remoteAddress(), "connection window stalled");
        goAwayAndClose(Http2Error.ENHANCE_YOUR_CALM);
        return true;
    }

    private boolean anyQueued() {
        try {
            return connection()
                            .forEachActiveStream(
                                    stream -> !encoder().flowController().hasFlowControlled(stream))
                    != null;
        } catch (Http2Exception e) {
            return false;
        }
    }

    long stallTimeoutNanos() {
        return options.stallTimeout().toNanos();
    }

    boolean windowClosed(Http2Stream stream) {
        return encoder().flowController().windowSize(stream) <= 0
                && encoder().flowController().hasFlowControlled(stream);
    }

    private void goAwayAndClose(Http2Error error) {
        goAway(ctx, connection().remote().lastStreamCreated(), error.code(), Unpooled.EMPTY_BUFFER, ctx.newPromise())
                .addListener(future -> ctx.close());
        flush(ctx);
    }

    private static boolean passed(long since, long timeout, long now) {
        return since != 0 && timeout > 0 && now - since >= timeout;
    }

    /**
     * Graceful stop (RFC 9113, section 6.8): Netty's close sends GOAWAY with the last stream it
     * took, lets those streams finish, then closes.
     */
    @Override
    public void drain() {
        ctx.channel().close();
    }

    /** Closes now: the close starts in front of this handler, past its graceful shutdown. */
    @Override
    public void close() {
        ctx.close();
    }

    @Override
    public SweptConnection previousSwept() {
        return previous;
    }

    @Override
    public void previousSwept(SweptConnection previous) {
        this.previous = previous;
    }

    @Override
    public SweptConnection nextSwept() {
        return next;
    }

    @Override
    public void nextSwept(SweptConnection next) {
        this.next = next;
    }

    String connectionId() {
        String text = idText;
        if (text == null) {
            text = Long.toString(id, 36);
            idText = text;
        }
        return text;
    }

    EventExecutor executor() {
        return ctx.executor();
    }

    InetSocketAddress remoteAddress() {
        return (InetSocketAddress) ctx.channel().remoteAddress();
    }

    InetSocketAddress localAddress() {
        return (InetSocketAddress) ctx.channel().localAddress();
    }

    /** Builds the handler with the server's settings and Netty's defences set from {@link Http2Options}. */
    private static final class Builder extends AbstractHttp2ConnectionHandlerBuilder<Http2ServerConnection, Builder> {
        private final ServerRuntime runtime;
        private final ConnectionTls tls;

        Builder(ServerRuntime runtime, ConnectionTls tls) {
            this.runtime = runtime;
            this.tls = tls;
            Http2Options options = runtime.http2;
            int resetSeconds = (int) Math.max(1, options.resetWindow().getSeconds());
            server(true);
            initialSettings(new Http2Settings()
                    .maxConcurrentStreams(options.maxConcurrentStreams())
                    .maxHeaderListSize(options.maxHeaderListSize())
                    .maxFrameSize(options.maxFrameSize())
                    .initialWindowSize(options.initialStreamWindow()));
            validateHeaders(true);
            validateRequiredPseudoHeaders(true);
            decoderEnforceMaxRstFramesPerWindow(options.maxResetsPerWindow(), resetSeconds);
            encoderEnforceMaxRstFramesPerWindow(options.maxResetsPerWindow(), resetSeconds);
            decoderEnforceMaxConsecutiveEmptyDataFrames(options.maxEmptyDataFrames());
            decoderEnforceMaxSmallContinuationFrames(options.maxContinuationFrames());
        }

        @Override
        public Http2ServerConnection build() {
            return super.build();
        }

        @Override
        protected Http2ServerConnection build(
                Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings initialSettings) {
            Http2ServerConnection connection =
                    new Http2ServerConnection(decoder, encoder, initialSettings, runtime, tls);
            frameListener(connection);
            return connection;
        }
    }
}

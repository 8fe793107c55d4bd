package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.Future;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.spi.FixedBody;
import io.parry.transport.spi.BodySources;
import io.parry.transport.spi.ByteBufSubscriber;
import io.parry.transport.spi.ConnectionTakeover;
import io.parry.transport.spi.DataBuffers;
import io.parry.transport.spi.RawBody;
import java.util.ArrayDeque;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP/1.1 framing of one connection, its writing side: writes responses in request order,
 * frames their bodies (Content-Length, the chunked coding, or the close for HTTP/1.0), sends {@code
 * 100 Continue}, and decides after which response the connection closes, half first (a lingering
 * close). It moves each exchange through {@code WRITING} and {@code SENT} and tells it when the last
 * byte left.
 *
 * <p>A fixed body leaves in one write, and so does a streamed body that has arrived in full by the
 * time its head leaves; any other streamed body is pulled one chunk at a time while the channel is
 * writable, so a slow client pauses the producer. Writes made while a read is being processed are
 * flushed once when the read completes.
 */
final class ResponseWriter {
    private static final Logger log = LoggerFactory.getLogger(ResponseWriter.class);
    private static final long LINGER_SECONDS = 2;
    /** The most unread request body the server reads and drops to keep a connection alive. */
    private static final long MAX_DRAIN = 64 * 1024;

    private final Http1Connection connection;
    private final ChannelHandlerContext ctx;
    private final ArrayDeque<Exchange> exchanges;
    /** The encoder's context, through which bytes encoded here are written so that they pass the encoder by. */
    private ChannelHandlerContext encoded;

    private boolean inRead;
    private boolean needsFlush;
    private BodyWriter streaming;
    private boolean closing;
    /**
     * The exchange after whose response the connection closes: the earliest one that asked
     * (no keep-alive, a refusal, a broken body, a timeout), or {@code null}.
     */
    private Exchange closeAfter;
    /** The exchange whose client holds its body back until it sees 100 Continue; {@code null} once sent. */
    private Exchange awaitingContinue;
    /** Whether the handler asked for the body of {@link #awaitingContinue}. */
    private boolean continueDemanded;

    ResponseWriter(Http1Connection connection, ChannelHandlerContext ctx, ArrayDeque<Exchange> exchanges) {
        this.connection = connection;
        this.ctx = ctx;
        this.exchanges = exchanges;
    }

    void readStarted() {
        inRead = true;
    }

    /** Whether a read of the connection is being processed: what is written now is flushed when it completes. */
    boolean inRead() {
        return inRead;
    }

    void readCompleted() {
        inRead = false;
        if (needsFlush) {
            needsFlush = false;
            ctx.flush();
        }
    }

    void writable() {
        if (streaming != null) {
            streaming.requestMore();
        }
    }

    /** Writes every response that is ready, in order, until one must wait. */
    void writeReady() {
        Exchange head;
        while (!closing && (head = exchanges.peek()) != null) {
            if (continueDemanded && awaitingContinue == head) {
                sendContinue(head);
            }
            if (!head.responseReady()) {
                return;
            }
            if (!start(head)) {
                return;
            }
        }
    }

    /** The connection closes after this exchange's response, or an earlier one's. */
    void closeAfter(Exchange exchange) {
        // Sequences may wrap, so they are compared by their difference.
        if (closeAfter == null || exchange.sequence - closeAfter.sequence < 0) {
            closeAfter = exchange;
        }
    }

    /** The exchange whose client waits for 100 Continue before it sends the body, or {@code null}. */
    void expectContinue(Exchange exchange) {
        awaitingContinue = exchange;
        continueDemanded = false;
    }

    /** Whether the exchange's client holds its body back until it sees 100 Continue. */
    boolean awaitsContinue(Exchange exchange) {
        return awaitingContinue == exchange;
    }

    /** The handler asked for the body its client holds back: 100 Continue goes once the exchange is first in line. */
    void continueDemanded(Exchange exchange) {
        if (awaitingContinue == exchange) {
            continueDemanded = true;
        }
    }

    /**
     * Sends 100 Continue for the first exchange in line, unless its final response head is already
     * out. A streamed response whose head is held for this (see {@link #start}) follows at once.
     */
    void sendContinue(Exchange exchange) {
        boolean headHeld = streaming != null && streaming.exchange == exchange && streaming.headHeld;
        if (awaitingContinue != exchange || (exchange.responseStarted() && !headHeld) || closing) {
            return;
        }
        awaitingContinue = null;
        continueDemanded = false;
        write(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE, Unpooled.EMPTY_BUFFER));
        if (headHeld) {
            streaming.writeHead();
        }
    }

    /**
     * The response's headers are out and its body cannot be completed: flush what was written and
     * close, so the response cannot look complete.
     */
    void abort(Exchange exchange) {
        if (streaming != null && streaming.exchange == exchange) {
            streaming.cancel();
        }
        closeAfterFlush();
    }

    private void closeAfterFlush() {
        closing = true;
        needsFlush = false;
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    void connectionClosed() {
        closing = true;
        if (streaming != null) {
            streaming.cancel();
        }
        Exchange exchange;
        while ((exchange = exchanges.poll()) != null) {
            exchange.abandon();
        }
    }

    /** Starts writing the head exchange; true when it was written in full. */
    private boolean start(Exchange exchange) {
        HttpResponse response = exchange.startWriting();
        HttpBody body = response.body();
        if (body instanceof ConnectionTakeover takeover) {
            switchProtocols(exchange, response, takeover);
            return false;
        }
        HttpStatus status = response.status();
        boolean bodyless = exchange.isHeadRequest() || status.forbidsBody();
        long length = body.contentLength();
        boolean http10 = Http1Connection.isHttp10(exchange);
        HttpVersion version = http10 ? HttpVersion.HTTP_1_0 : HttpVersion.HTTP_1_1;
        HttpResponseStatus nettyStatus = NettyStatuses.of(status);
        if (!bodyless
                && !(body instanceof FixedBody)
                && (holdsBodyBack(exchange) || echoesArrivingBody(exchange, body))) {
            // A streamed response may be about to read the body the client holds back (an echo, a
            // proxy): its head waits for that demand, which sends 100 Continue first, or for its
            // own first chunk (RFC 9110, section 10.1.1). An echo of a body still arriving waits for
            // its first chunk too, so that a body that arrives whole leaves with its head in one message.
            streaming = new BodyWriter(exchange, response, version, nettyStatus, length, true);
            BodySources.subscribe(body, streaming);
            return false;
        }
        if (bodyless || body instanceof FixedBody) {
            HttpData data = bodyless ? null : ((FixedBody) body).data();
            if (bodyless) {
                Exchange.release(response);
            }
            exchange.bodyBytesSent(data == null ? 0 : data.length());
            writeLast(exchange, whole(exchange, response, version, nettyStatus, bodyless, length, data, null));
            return true;
        }
        ByteBuf whole = body instanceof RawBody ? ((RawBody) body).takeReceived() : null;
        if (whole != null) {
            return writeWhole(exchange, response, version, nettyStatus, length, whole);
        }
        write(new DefaultHttpResponse(version, nettyStatus, head(exchange, response, false, length)));
        streaming = new BodyWriter(exchange, response, version, nettyStatus, length, false);
        BodySources.subscribe(body, streaming);
        return false;
    }

    /**
     * Writes a 101 head (the exchange checked that it may be sent) and hands the connection over once
     * it left; nothing else is written on this connection (RFC 9110, section 15.2.2).
     */
    private void switchProtocols(Exchange exchange, HttpResponse response, ConnectionTakeover takeover) {
        closing = true;
        needsFlush = false;
        exchanges.poll();
        boolean listen = exchange.lastHandedOver();
        io.netty.handler.codec.http.HttpHeaders headers =
                ResponseHeaders.of(response, null, null, HttpHeaderValues.UPGRADE);
        ctx.writeAndFlush(new DefaultFullHttpResponse(
                        HttpVersion.HTTP_1_1,
                        HttpResponseStatus.SWITCHING_PROTOCOLS,
                        Unpooled.EMPTY_BUFFER,
                        headers,
                        EmptyHttpHeaders.INSTANCE))
                .addListener(future -> {
                    if (listen) {
                        exchange.end(future.isSuccess());
                    }
                    if (future.isSuccess()) {
                        connection.takeOver(takeover);
                    } else {
                        takeover.abandoned(future.cause());
                        ctx.close();
                    }
                });
    }

    /** Whether the response's body is the request's own, still arriving: its chunks come with the client's. */
    private static boolean echoesArrivingBody(Exchange exchange, HttpBody body) {
        return body == exchange.body() && exchange.bodyStillArriving();
    }

    /** Whether the client still holds back a body until it sees 100 Continue. */
    private boolean holdsBodyBack(Exchange exchange) {
        return awaitingContinue == exchange && exchange.bodyStillArriving();
    }

    /**
     * Writes a streamed body that had arrived in full before its head could leave (a proxied small
     * response, usually) as one message, as a fixed body is, framed by its length even when none was
     * declared; true when it was written in full.
     */
    private boolean writeWhole(
            Exchange exchange,
            HttpResponse response,
            HttpVersion version,
            HttpResponseStatus status,
            long declared,
            ByteBuf body) {
        int size = body.readableBytes();
        if (declared >= 0 && size != declared) {
            log.debug("Response body of {} has {} bytes, declared {}; closing", exchange, size, declared);
            write(new DefaultHttpResponse(version, status, head(exchange, response, false, declared)));
            body.release();
            closeAfterFlush();
            return false;
        }
        exchange.bodyBytesSent(size);
        writeLast(exchange, whole(exchange, response, version, status, false, size, null, body));
        return true;
    }

    private boolean mustClose(Exchange exchange, HttpResponse response, boolean bodyless, long length, boolean http10) {
        if (closeAfter == exchange) {
            return true;
        }
        if ((connection.isDraining() || connection.runtime().isDraining()) && exchanges.size() == 1) {
            return true; // Stopping: the last response in flight tells the client to go elsewhere.
        }
        if (response.headers().containsValue("connection", "close")) {
            return true;
        }
        if (!bodyless && length < 0 && http10) {
            return true; // HTTP/1.0 has no chunked coding: the close delimits the body.
        }
        // A body the client was told to hold back (no 100 Continue sent) may or may not follow, so
        // the bytes after this response cannot be framed: close (RFC 9112, section 9.3; RFC 9110,
        // section 10.1.1 lets the server choose between closing and reading what comes).
        if (holdsBodyBack(exchange)) {
            return true;
        }
        // Nobody reads the rest of this body: draining a little keeps the connection, a lot is not worth it.
        return exchange.bodyStillArriving()
                && !exchange.body().isSubscribed()
                && response.body() != exchange.body()
                && unreadBytes(exchange) > MAX_DRAIN;
    }

    /** What remains of the request body, or {@link Long#MAX_VALUE} when it is chunked. */
    private static long unreadBytes(Exchange exchange) {
        long declared = exchange.body().contentLength();
        return declared < 0 ? Long.MAX_VALUE : declared - exchange.bodyBytesReceived();
    }

    /**
     * A response whose body is at hand (or none) as one message: bytes encoded here when {@link
     * WholeResponseEncoder} can, else a message for Netty's encoder.
     *
     * @param data the body, or {@code null}
     * @param buffer the body, owned by the callee, or {@code null}
     */
    private Object whole(
            Exchange exchange,
            HttpResponse response,
            HttpVersion version,
            HttpResponseStatus status,
            boolean bodyless,
            long length,
            HttpData data,
            ByteBuf buffer) {
        if (!WholeResponseEncoder.encodes(response.status())) {
            ByteBuf content = buffer != null ? buffer : data == null ? Unpooled.EMPTY_BUFFER : DataBuffers.wrap(data);
            return new DefaultFullHttpResponse(
                    version, status, content, head(exchange, response, bodyless, length), EmptyHttpHeaders.INSTANCE);
        }
        boolean http10 = Http1Connection.isHttp10(exchange);
        CharSequence connection = connectionField(exchange, response, bodyless, length, http10);
        CharSequence framingName = framingName(response.status(), bodyless, length, http10);
        return WholeResponseEncoder.current()
                .encode(
                        ctx.alloc(),
                        http10,
                        status,
                        response.headers(),
                        framingName,
                        framingValue(framingName, length),
                        connection,
                        HttpDate.at(this.connection.clockNanos()),
                        data,
                        buffer);
    }

    /** The response's head fields; decides whether the connection closes after it. */
    private io.netty.handler.codec.http.HttpHeaders head(
            Exchange exchange, HttpResponse response, boolean bodyless, long length) {
        boolean http10 = Http1Connection.isHttp10(exchange);
        CharSequence connection = connectionField(exchange, response, bodyless, length, http10);
        CharSequence framingName = framingName(response.status(), bodyless, length, http10);
        return ResponseHeaders.of(response, framingName, framingValue(framingName, length), connection);
    }

    /** The {@code Connection} value the response carries, or {@code null}; decides whether the connection closes after it. */
    private CharSequence connectionField(
            Exchange exchange, HttpResponse response, boolean bodyless, long length, boolean http10) {
        boolean close = mustClose(exchange, response, bodyless, length, http10);
        if (close) {
            closeAfter(exchange);
        }
        return close ? HttpHeaderValues.CLOSE : http10 ? HttpHeaderValues.KEEP_ALIVE : null;
    }

    /** {@code content-length}, {@code transfer-encoding} or {@code null}: how the body is delimited. */
    private static CharSequence framingName(HttpStatus status, boolean bodyless, long length, boolean http10) {
        if (status.forbidsBody()) {
            return null;
        }
        if (length >= 0) {
            return HttpHeaderNames.CONTENT_LENGTH;
        }
        return !bodyless && !http10 ? HttpHeaderNames.TRANSFER_ENCODING : null;
    }

    private static CharSequence framingValue(CharSequence framingName, long length) {
        if (framingName == null) {
            return null;
        }
        return framingName == HttpHeaderNames.CONTENT_LENGTH ? ContentLengths.of(length) : HttpHeaderValues.CHUNKED;
    }

    private void write(Object message) {
        write(message, ctx.voidPromise());
    }

    private void write(Object message, ChannelPromise promise) {
        outbound(message).write(message, promise);
        if (inRead) {
            needsFlush = true;
        } else {
            ctx.flush();
        }
    }

    /** Where a message goes: bytes encoded here pass Netty's encoder by, anything else goes through it. */
    private ChannelHandlerContext outbound(Object message) {
        if (!(message instanceof ByteBuf)) {
            return ctx;
        }
        if (encoded == null) {
            ChannelHandlerContext encoder = ctx.pipeline().context(HttpResponseEncoder.class);
            encoded = encoder != null ? encoder : ctx;
        }
        return encoded;
    }

    /** Writes an exchange's last message, then moves on to the next exchange or closes. */
    private void writeLast(Exchange exchange, Object message) {
        exchanges.poll();
        if (awaitingContinue == exchange) {
            awaitingContinue = null; // Kept no longer than its exchange, so an idle connection holds none.
            continueDemanded = false;
        }
        boolean listen = exchange.lastHandedOver();
        if (closeAfter == exchange) {
            closing = true;
            ChannelFuture written = outbound(message).writeAndFlush(message);
            if (listen) {
                written.addListener(future -> exchange.end(future.isSuccess()));
            }
            written.addListener((ChannelFutureListener) future -> lingeringClose());
            needsFlush = false;
        } else if (listen) {
            // A promise of its own only when someone listens, to learn when the last byte left.
            ChannelPromise promise = ctx.newPromise();
            promise.addListener(future -> lastWritten(exchange, future));
            write(message, promise);
        } else {
            write(message);
        }
        connection.exchangeFinished(exchange);
    }

    private void lastWritten(Exchange exchange, Future<?> future) {
        exchange.end(future.isSuccess());
        if (!future.isSuccess()) {
            // What the void promise does on failure, which this promise replaced.
            ctx.pipeline().fireExceptionCaught(future.cause());
        }
    }

    /**
     * Closes after the response, but half first: the client may still be sending (a body we refused),
     * and closing a socket with unread input makes the kernel send a reset that can destroy the
     * response before the client reads it (RFC 9112, section 9.6).
     */
    private void lingeringClose() {
        if (!ctx.channel().isActive()) {
            return;
        }
        if (ctx.channel() instanceof DuplexChannel) {
            ((DuplexChannel) ctx.channel()).shutdownOutput();
            ctx.channel().config().setAutoRead(true);
            ctx.executor().schedule(() -> ctx.close(), LINGER_SECONDS, TimeUnit.SECONDS);
        } else {
            ctx.close();
        }
    }

    /** Pulls a streamed body onto the wire, one chunk at a time while the channel is writable. */
    private final class BodyWriter implements ByteBufSubscriber {
        final Exchange exchange;
        private final HttpResponse response;
        private final HttpVersion version;
        private final HttpResponseStatus status;
        private final long expectedLength;
        private final boolean chunked;
        /** The head is not written yet: it waits for 100 Continue or the body's first signal. */
        boolean headHeld;

        private Flow.Subscription subscription;
        private boolean requested;
        private boolean done;
        private long written;

        BodyWriter(
                Exchange exchange,
                HttpResponse response,
                HttpVersion version,
                HttpResponseStatus status,
                long expectedLength,
                boolean headHeld) {
            this.exchange = exchange;
            this.response = response;
            this.version = version;
            this.status = status;
            this.expectedLength = expectedLength;
            this.chunked = expectedLength < 0 && !Http1Connection.isHttp10(exchange);
            this.headHeld = headHeld;
        }

        /** Writes the held head, deciding only now whether the connection stays open after it. */
        void writeHead() {
            headHeld = false;
            write(new DefaultHttpResponse(version, status, head(exchange, response, false, expectedLength)));
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            // Directly when on the loop, as a body received or made there is: no task per response.
            if (ctx.executor().inEventLoop()) {
                subscribed(subscription);
            } else {
                ctx.executor().execute(() -> subscribed(subscription));
            }
        }

        private void subscribed(Flow.Subscription subscription) {
            this.subscription = subscription;
            if (done) {
                subscription.cancel();
            } else {
                requestMore();
            }
        }

        void requestMore() {
            if (!done && subscription != null && !requested && ctx.channel().isWritable()) {
                requested = true;
                subscription.request(1);
            }
        }

        @Override
        public void onNext(ByteBuf chunk) {
            if (ctx.executor().inEventLoop()) {
                writeChunk(chunk);
            } else {
                ctx.executor().execute(() -> writeChunk(chunk));
            }
        }

        private void writeChunk(ByteBuf chunk) {
            requested = false;
            if (done) {
                chunk.release();
                return;
            }
            written += chunk.readableBytes();
            if (expectedLength >= 0 && written > expectedLength) {
                if (headHeld) {
                    writeHead();
                }
                chunk.release();
                fail(new IllegalStateException("body longer than its declared " + expectedLength + " bytes"));
                return;
            }
            exchange.bodyBytesSent(written);
            if (written == expectedLength) {
                writeLastChunk(chunk);
                return;
            }
            if (headHeld) {
                writeHead();
            }
            write(new DefaultHttpContent(chunk));
            requestMore();
        }

        /**
         * Writes the chunk that completes the declared length as the response's last message, with
         * the head when it was held: an echo or a proxied body that arrived in one piece leaves as one
         * message. The source's completion, which follows, finds the response done.
         */
        private void writeLastChunk(ByteBuf chunk) {
            done = true;
            streaming = null;
            if (response.body() == exchange.body()) {
                // An echo has read all it needs: let go of the request body before the exchange ends,
                // which would otherwise fail this subscriber for the body's end still to come.
                subscription.cancel();
            }
            if (headHeld) {
                headHeld = false;
                writeLast(exchange, whole(exchange, response, version, status, false, expectedLength, null, chunk));
            } else {
                writeLast(exchange, new DefaultLastHttpContent(chunk, EmptyHttpHeaders.INSTANCE));
            }
            writeReady();
        }

        @Override
        public void onComplete(HttpHeaders trailers) {
            // Directly when on the loop, as a body received or made there is: no task per response.
            if (ctx.executor().inEventLoop()) {
                completed(trailers);
            } else {
                ctx.executor().execute(() -> completed(trailers));
            }
        }

        private void completed(HttpHeaders trailers) {
            if (done) {
                return;
            }
            if (expectedLength >= 0 && written != expectedLength) {
                fail(new IllegalStateException("body of " + written + " bytes, declared " + expectedLength));
                return;
            }
            if (headHeld) {
                writeHead();
            }
            done = true;
            streaming = null;
            LastHttpContent last = chunked && !trailers.isEmpty()
                    ? new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER, NettyHeaders.toNetty(trailers))
                    : LastHttpContent.EMPTY_LAST_CONTENT;
            writeLast(exchange, last);
            writeReady();
        }

        @Override
        public void onError(Throwable cause) {
            onLoop(() -> fail(cause));
        }

        private void fail(Throwable cause) {
            if (done) {
                return;
            }
            log.debug("Response body of {} failed after its headers were sent; closing", exchange, cause);
            cancel();
            closeAfterFlush();
        }

        void cancel() {
            if (!done) {
                done = true;
                streaming = null;
                if (subscription != null) {
                    subscription.cancel();
                }
            }
        }

        private void onLoop(Runnable task) {
            if (ctx.executor().inEventLoop()) {
                task.run();
            } else {
                ctx.executor().execute(task);
            }
        }
    }
}

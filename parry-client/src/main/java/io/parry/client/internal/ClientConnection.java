package io.parry.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.parry.client.BodyTimeoutException;
import io.parry.client.CallTimeoutException;
import io.parry.client.ConnectionClosedException;
import io.parry.client.InvalidResponseException;
import io.parry.client.RequestBodyException;
import io.parry.client.ResponseTimeoutException;
import io.parry.http.HttpBody;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpStatus;
import io.parry.http.spi.FixedBody;
import io.parry.transport.spi.BodySources;
import io.parry.transport.spi.InboundBody;
import io.parry.transport.spi.ReceivedFields;
import java.io.IOException;
import java.util.concurrent.CancellationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pooled HTTP/1.1 connection and the exchange it carries: writes the request as bytes ({@link
 * RequestHeads}, {@link ChunkedCoding}), turns the decoded response into an {@link
 * io.parry.http.HttpResponse} with a streaming body, enforces the response-headers and body-idle
 * deadlines, and hands the connection back to its pool when request and response both completed
 * cleanly. The head is delivered when the body ends in the read that brought the head, or else when
 * that read ends, so a small response reaches the caller whole and a larger one streams. Any failure
 * fails the call (or its response body, once the head was delivered) and closes the connection, so
 * a truncated body never looks complete. A call its caller gives up on after the request went out in
 * full drains instead: the rest of a short response is read and dropped, within the pool's drain
 * time and the call's timeouts, and the connection is reused. An idle connection keeps reading: anything
 * it receives, or its closing, marks it dead at once. Every method runs on the connection's event loop.
 */
final class ClientConnection extends ChannelDuplexHandler implements CallStream {
    static final int CONNECTING = 0;
    static final int IDLE = 1;
    static final int BUSY = 2;
    static final int CLOSED = 3;

    private static final Logger log = LoggerFactory.getLogger(ClientConnection.class);

    /** The pool's view of this connection, kept by the pool. */
    int poolState = CONNECTING;

    long idleSinceNanos;
    ClientConnection previousBusy;
    ClientConnection nextBusy;

    private final ConnectionPool pool;
    private final ResponseDecoder decoder;
    private final long openedNanos = System.nanoTime();
    private ChannelHandlerContext ctx;
    private boolean dead;
    private int served;

    private ClientCall call;
    private RequestBodyWriter requestWriter;
    private InboundBody responseBody;
    /** A response whose head came in the read in progress, held until its body ends or the read does. */
    private io.parry.http.HttpResponse heldResponse;
    /** The last final response's headers, whose fields a response spelt the same way takes unchecked. */
    private HttpHeaders lastHeaders;

    private boolean requestDone;
    /** Whether the request body in flight is sent in the chunked coding. */
    private boolean chunkedRequest;

    private boolean headReceived;
    private boolean keepAlive;
    private boolean interim;
    private boolean paused;
    /** Whether the response in flight belongs to an abandoned call and is read only to be dropped. */
    private boolean draining;
    /** When an abandoned call's response must have ended, while draining. */
    private long drainDeadline;
    /** The response body's declared length, or -1. */
    private long responseLength;
    /** How many bytes of the response body arrived so far. */
    private long responseBytes;

    private long responseDeadline;
    private long lastReadNanos;

    ClientConnection(ConnectionPool pool, ResponseDecoder decoder) {
        this.pool = pool;
        this.decoder = decoder;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** Whether the connection may carry another call: open, never surprised, and not too old. */
    boolean isReusable(long now, long idleTimeoutNanos, long maxLifetimeNanos) {
        return !dead
                && ctx.channel().isActive()
                && (maxLifetimeNanos == 0 || now - openedNanos < maxLifetimeNanos)
                && (idleTimeoutNanos == 0 || now - idleSinceNanos < idleTimeoutNanos);
    }

    /** Starts the call: writes its head, then its body as the channel can take it. */
    void start(ClientCall call) {
        this.call = call;
        served++;
        requestDone = false;
        headReceived = false;
        interim = false;
        draining = false;
        responseLength = -1;
        responseBytes = 0;
        responseDeadline = 0;
        keepAlive = !call.request.headers().containsValue("connection", "close");
        decoder.expectHead(call.isHead());
        // A failed write may still have put bytes on the wire (the head, part of a body), so the
        // request counts as sent from its first write: a caller must never resend a request it
        // cannot prove unseen.
        call.requestSent = true;
        HttpBody body = call.request.body();
        if (body instanceof FixedBody) {
            ctx.writeAndFlush(RequestHeads.full(ctx.alloc(), call.request, call.endpoint, ((FixedBody) body).data()))
                    .addListener((ChannelFutureListener) written -> {
                        if (written.isSuccess()) {
                            requestWritten(call);
                        }
                    });
            return;
        }
        long length = body.contentLength();
        chunkedRequest = length < 0;
        ctx.write(RequestHeads.head(ctx.alloc(), call.request, call.endpoint, length), ctx.voidPromise());
        RequestBodyWriter writer = new RequestBodyWriter(this, call, ctx.executor(), length);
        requestWriter = writer;
        try {
            BodySources.subscribe(body, writer);
        } catch (RuntimeException e) {
            writer.onError(e); // A publisher that throws instead of signalling onError.
        }
        ctx.flush();
    }

    @Override
    public boolean isWritable(ClientCall forCall) {
        return call == forCall && ctx.channel().isWritable();
    }

    @Override
    public void writeBodyChunk(ClientCall forCall, ByteBuf chunk) {
        // An empty chunk would read as the last one in the chunked coding, and is nothing otherwise.
        if (call != forCall || !chunk.isReadable()) {
            chunk.release();
            return;
        }
        if (chunkedRequest) {
            ctx.write(ChunkedCoding.sizeLine(ctx.alloc(), chunk.readableBytes()), ctx.voidPromise());
            ctx.write(chunk, ctx.voidPromise());
            ctx.writeAndFlush(ChunkedCoding.chunkEnd(), ctx.voidPromise());
        } else {
            ctx.writeAndFlush(chunk, ctx.voidPromise());
        }
    }

    @Override
    public void writeBodyEnd(ClientCall forCall, HttpHeaders trailers) {
        if (call != forCall) {
            return;
        }
        requestWriter = null;
        ByteBuf last = chunkedRequest ? ChunkedCoding.lastChunk(ctx.alloc(), trailers) : Unpooled.EMPTY_BUFFER;
        ctx.writeAndFlush(last).addListener((ChannelFutureListener) written -> {
            if (written.isSuccess()) {
                requestWritten(forCall);
            }
        });
    }

    @Override
    public void requestBodyFailed(ClientCall forCall, Throwable cause) {
        if (call == forCall) {
            requestWriter = null;
            fail(new RequestBodyException("the request body failed: " + cause, cause));
        }
    }

    @Override
    public void pauseReading(ClientCall forCall) {
        if (call == forCall && !paused && !draining) {
            paused = true;
            ctx.channel().config().setAutoRead(false);
        }
    }

    @Override
    public void resumeReading(ClientCall forCall) {
        if (call == forCall && paused) {
            paused = false;
            lastReadNanos = System.nanoTime();
            ctx.channel().config().setAutoRead(true);
        }
    }

    /**
     * The caller gave up on the call or its body: drain the rest of the response when that can keep
     * the connection, close otherwise, without failing anything the caller still sees.
     */
    @Override
    public void abandon(ClientCall forCall) {
        if (call != forCall || draining) {
            return;
        }
        InboundBody body = responseBody;
        if (mayDrain()) {
            drain();
        } else {
            closeExchange();
        }
        if (body != null) {
            body.onFailure(new CancellationException("the call was cancelled"));
        }
    }

    /**
     * Whether an abandoned call's response can be read to its end to keep the connection: the request
     * went out in full, the connection is meant to persist, and the body is short enough.
     */
    private boolean mayDrain() {
        return pool.abandonedDrain > 0
                && pool.abandonedDrainNanos > 0
                && requestDone
                && keepAlive
                && !dead
                && responseLength <= pool.abandonedDrain
                && responseBytes <= pool.abandonedDrain;
    }

    private void drain() {
        draining = true;
        drainDeadline = System.nanoTime() + pool.abandonedDrainNanos;
        responseBody = null;
        heldResponse = null;
        lastReadNanos = System.nanoTime();
        if (paused) {
            paused = false;
            ctx.channel().config().setAutoRead(true);
        }
    }

    /** Fails the call in flight, if any, because the client closes. */
    void clientClosed() {
        if (call != null) {
            fail(new ConnectionClosedException("the client was closed", call.requestSent, null));
        } else {
            pool.discard(this);
            close();
        }
    }

    void checkDeadlines(long now) {
        ClientCall current = call;
        if (current == null) {
            return;
        }
        if (draining && now - drainDeadline >= 0) {
            closeExchange();
        } else if (current.callExpired(now)) {
            // Reading paused for the caller's backpressure: the caller, not the upstream, held the call up.
            fail(new CallTimeoutException(current.endpoint, current.timeouts.call(), current.requestSent, paused));
        } else if (!headReceived) {
            if (responseDeadline != 0 && now - responseDeadline >= 0) {
                fail(new ResponseTimeoutException(
                        current.endpoint, current.timeouts.responseHeaders(), current.requestSent));
            }
        } else if ((responseBody != null || draining)
                && !paused
                && current.bodyIdleNanos > 0
                && now - lastReadNanos >= current.bodyIdleNanos) {
            fail(new BodyTimeoutException(current.endpoint, current.timeouts.bodyIdle(), current.requestSent));
        }
    }

    void close() {
        dead = true;
        ctx.close();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (call == null) {
            ReferenceCountUtil.release(msg);
            if (!dead) {
                log.debug("Closing an idle connection to {} that received {}", pool.endpoint, msg);
                pool.discard(this);
                close();
            }
        } else if (msg instanceof HttpResponse) {
            onHead((HttpResponse) msg);
        } else if (msg instanceof HttpContent) {
            onContent((HttpContent) msg);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    /** A response still held back at the end of a read has more body to come: its head goes now. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (heldResponse != null) {
            deliverHeld();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (requestWriter != null && ctx.channel().isWritable()) {
            requestWriter.requestMore();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        dead = true;
        if (call != null) {
            String stage = headReceived ? "the response body was complete" : "the response headers arrived";
            lost(new ConnectionClosedException(
                    "the connection to " + pool.endpoint + " closed before " + stage, call.requestSent, null));
        } else {
            pool.discard(this);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (call == null) {
            log.debug("Idle connection to {} failed: {}", pool.endpoint, cause.toString());
            pool.discard(this);
            close();
        } else if (cause instanceof IOException) {
            lost(new ConnectionClosedException(
                    "the connection to " + pool.endpoint + " failed: " + cause.getMessage(), call.requestSent, cause));
        } else {
            fail(new InvalidResponseException("cannot read the response of " + pool.endpoint, cause));
        }
    }

    private void requestWritten(ClientCall forCall) {
        if (call != forCall) {
            return;
        }
        requestDone = true;
        long deadline = forCall.requestWritten(headReceived);
        if (deadline != 0) {
            responseDeadline = deadline;
        }
    }

    private void onHead(HttpResponse head) {
        ReferenceCountUtil.release(head);
        if (head.decoderResult().isFailure()) {
            fail(invalid("a malformed response head", head.decoderResult().cause()));
            return;
        }
        int code = head.status().code();
        if (code < 200) {
            if (code == 101) {
                switchProtocols(head);
            } else {
                interim = true; // RFC 9110, section 15.2: a final response follows.
            }
            return;
        }
        if (code > 599) {
            fail(invalid("status " + code, null));
            return;
        }
        HttpHeaders headers;
        try {
            // An upstream sends much the same head each time: its repeated fields need no second check.
            headers = ReceivedFields.toParry(head.headers(), lastHeaders);
        } catch (IllegalArgumentException e) {
            fail(invalid("an invalid header field (" + e.getMessage() + ")", e));
            return;
        }
        lastHeaders = headers;
        headReceived = true;
        responseDeadline = 0;
        lastReadNanos = System.nanoTime();
        boolean bodyless = call.isHead() || code == 204 || code == 304;
        ReceivedFields fields = ReceivedFields.of(head.headers());
        boolean chunked = fields.isChunked();
        long length = chunked ? -1 : fields.contentLength();
        responseLength = length;
        // A body delimited by the close (RFC 9112, section 6.3) leaves nothing to reuse.
        keepAlive &= fields.isKeepAlive(head.protocolVersion()) && (bodyless || chunked || length >= 0);
        if (draining) {
            if (!keepAlive || length > pool.abandonedDrain) {
                closeExchange();
            }
            return; // The body, if any, and the end come through onContent.
        }
        if (!requestDone && code >= 400) {
            stopRequestBody();
        }
        HttpBody body;
        if (bodyless || length == 0) {
            body = HttpBody.empty();
        } else {
            responseBody = new InboundBody(ctx.executor(), call, length);
            body = new ResponseBody(responseBody, call);
        }
        // Held until the body ends in this same read, if it does: a small response then reaches the
        // caller whole, and a writer downstream can send it as one message.
        heldResponse =
                io.parry.http.HttpResponse.received(head.protocolVersion().text(), HttpStatus.of(code), headers, body);
    }

    /**
     * A {@code 101} that answers the upgrade the request asked for ends the connection's HTTP life: it
     * leaves the pool, and the caller gets it, held, as the response's body ({@link HeldUpgrade}).
     */
    private void switchProtocols(HttpResponse head) {
        HttpHeaders headers;
        try {
            headers = ReceivedFields.toParry(head.headers());
        } catch (IllegalArgumentException e) {
            fail(invalid("an invalid header field (" + e.getMessage() + ")", e));
            return;
        }
        String problem = UpgradeCheck.problem(call.request, headers);
        if (problem != null) {
            fail(invalid(problem, null));
            return;
        }
        ClientCall switched = call;
        call = null;
        switched.state = ClientCall.DONE;
        switched.connection = null;
        RequestBodyWriter writer = requestWriter;
        requestWriter = null;
        if (writer != null) {
            writer.cancel(); // The upgrade starts after the request (RFC 9110, section 7.8); a body still sent
            // belongs to no one.
        }
        dead = true;
        pool.discard(this);
        HeldUpgrade upgrade = HeldUpgrade.replace(ctx, decoder);
        pool.upgraded(upgrade);
        if (!switched.deliver(io.parry.http.HttpResponse.of(HttpStatus.SWITCHING_PROTOCOLS, headers, upgrade))) {
            upgrade.close();
        }
    }

    private void deliverHeld() {
        io.parry.http.HttpResponse response = heldResponse;
        heldResponse = null;
        deliver(call, response, responseBody);
    }

    /** Completes the call with its response; a call given up on meanwhile drops the response's body. */
    private void deliver(ClientCall to, io.parry.http.HttpResponse response, InboundBody body) {
        if (!to.deliver(response)) {
            abandon(to);
            if (body != null) {
                body.discard();
            }
        }
    }

    private void onContent(HttpContent content) {
        if (interim) {
            interim = !(content instanceof LastHttpContent);
            content.release();
            return;
        }
        if (content.decoderResult().isFailure()) {
            content.release();
            fail(invalid("a malformed response body", content.decoderResult().cause()));
            return;
        }
        lastReadNanos = System.nanoTime();
        responseBytes += content.content().readableBytes();
        if (draining) {
            drop(content);
            return;
        }
        HttpHeaders trailers = null;
        if (content instanceof LastHttpContent) {
            try {
                trailers = ReceivedFields.toParry(((LastHttpContent) content).trailingHeaders());
            } catch (IllegalArgumentException e) {
                content.release();
                fail(invalid("an invalid trailer field (" + e.getMessage() + ")", e));
                return;
            }
        }
        ClientCall current = call;
        InboundBody body = responseBody;
        if (body != null && content.content().isReadable()) {
            body.onChunk(content.content());
        } else {
            content.release();
        }
        if (trailers != null && call == current) {
            io.parry.http.HttpResponse held = heldResponse;
            heldResponse = null;
            responseEnded(body, trailers);
            if (held != null) {
                deliver(current, held, body);
            }
        }
    }

    /** A piece of an abandoned call's response: dropped, and the connection reused after the last. */
    private void drop(HttpContent content) {
        boolean last = content instanceof LastHttpContent;
        content.release();
        if (responseBytes > pool.abandonedDrain) {
            closeExchange();
        } else if (last) {
            draining = false;
            finish();
        }
    }

    /**
     * An error answered the request before its body was sent: the upstream does not want the rest, so
     * the body's source stops now, and the connection, left in the middle of a request, closes after
     * the response (RFC 9112, section 9.5). A success answered early may be a full-duplex exchange
     * (an echo, say), so its request body keeps flowing.
     */
    private void stopRequestBody() {
        RequestBodyWriter writer = requestWriter;
        requestWriter = null;
        if (writer != null) {
            writer.cancel();
        }
    }

    /** The whole response arrived: the connection is let go before the body's reader hears of the end. */
    private void responseEnded(InboundBody body, HttpHeaders trailers) {
        responseBody = null;
        if (requestDone) {
            finish();
        } else {
            closeExchange(); // The upstream answered before the whole request was sent.
        }
        if (body != null) {
            body.onEnd(trailers);
        }
    }

    private void finish() {
        ClientCall done = call;
        call = null;
        done.state = ClientCall.DONE;
        done.connection = null;
        requestWriter = null;
        if (paused) {
            paused = false;
            ctx.channel().config().setAutoRead(true);
        }
        boolean surplus = decoder.hasSurplus();
        if (surplus) {
            log.debug("Closing the connection to {}: it sent more than the response to {}", pool.endpoint, done);
        }
        pool.release(this, keepAlive && !dead && !surplus);
    }

    /**
     * The connection closed or broke. A reused connection that dies before answering was most likely
     * closed by the upstream while idle, with the close still in flight when the call took it; an
     * idempotent request with a replayable body is then sent again once, on another connection (RFC
     * 9112, section 9.3.1). Anything else fails.
     */
    private void lost(ConnectionClosedException cause) {
        ClientCall current = call;
        if (served > 1 && !headReceived && !interim && current.mayRetry()) {
            log.debug("Connection to {} closed before answering; sending {} again", pool.endpoint, current);
            closeExchange();
            current.retriedAfter = cause;
            pool.acquire(current);
        } else {
            fail(cause);
        }
    }

    /** Fails the call, or its response body once the head was delivered, and closes. */
    private void fail(Throwable cause) {
        ClientCall failed = call;
        if (failed == null) {
            return;
        }
        if (heldResponse != null) {
            deliverHeld(); // Its body fails below, as if the head had gone at once.
            if (call != failed) {
                return; // The caller gave up on it.
            }
        }
        InboundBody body = responseBody;
        boolean afterHead = headReceived;
        closeExchange();
        if (!afterHead) {
            failed.fail(cause);
        } else if (body != null) {
            body.onFailure(cause);
        }
    }

    private void closeExchange() {
        ClientCall current = call;
        call = null;
        current.state = ClientCall.DONE;
        current.connection = null;
        responseBody = null;
        heldResponse = null;
        RequestBodyWriter writer = requestWriter;
        requestWriter = null;
        pool.discard(this);
        close();
        if (writer != null) {
            writer.cancel();
        }
    }

    private InvalidResponseException invalid(String what, Throwable cause) {
        return new InvalidResponseException(pool.endpoint + " sent " + what, cause);
    }
}

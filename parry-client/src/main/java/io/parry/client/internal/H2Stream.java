package io.parry.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.util.ReferenceCountUtil;
import io.parry.client.BodyTimeoutException;
import io.parry.client.CallTimeoutException;
import io.parry.client.ConnectionClosedException;
import io.parry.client.InvalidResponseException;
import io.parry.client.RequestBodyException;
import io.parry.client.ResponseTimeoutException;
import io.parry.http.HttpBody;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.spi.FixedBody;
import io.parry.transport.spi.BodySources;
import io.parry.transport.spi.InboundBody;
import java.util.concurrent.CancellationException;

/**
 * One call on an HTTP/2 stream (a child channel of {@link H2Connection}): writes the request as a
 * header block and data frames, turns the response's frames into an {@link HttpResponse} with a
 * streaming body, and enforces the call's deadlines. As on an HTTP/1.1 connection, the head is
 * delivered when the body ends in the read that brought the head, or else when that read ends, so a
 * small response reaches the caller whole (and a proxy writes it at once). The stream's flow-control window is the
 * response body's backpressure: a paused reader stops this stream's reads, so its window is not
 * given back and the upstream stops sending on it, while other streams go on. Trailers travel both
 * ways. A stream the upstream did not process (refused, RFC 9113 section 8.7, or above a GOAWAY's
 * last stream id, section 6.8) is sent again on another connection when its body can be replayed.
 * Every method runs on the connection's event loop.
 */
final class H2Stream extends ChannelDuplexHandler implements CallStream {
    private static final int MAX_UNSENT = 64 * 1024;

    private final H2Connection connection;
    private ClientCall call;
    private ChannelHandlerContext ctx;
    private RequestBodyWriter requestWriter;
    private InboundBody responseBody;
    /** A response whose head came in the read in progress, held until its body ends or the read does. */
    private HttpResponse heldResponse;

    private boolean requestDone;
    /** Whether the request's head ended the stream, its body being empty. */
    private boolean endedWithHead;

    private boolean headReceived;
    private boolean paused;
    /** Whether the upstream said it did not process the stream, so it may be sent elsewhere. */
    private boolean unprocessed;
    /** Request body bytes written that have not left yet. */
    private int unsent;

    private long responseDeadline;
    private long lastReadNanos;

    H2Stream(H2Connection connection, ClientCall call) {
        this.connection = connection;
        this.call = call;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** Writes the request's head, then its body as the stream's window allows. */
    void start() {
        ClientCall current = call;
        current.requestSent = true;
        HttpBody body = current.request.body();
        if (body instanceof FixedBody fixed) {
            int length = fixed.data().length();
            Http2Headers head = H2Heads.request(current.request, current.endpoint, length);
            if (length == 0) {
                ctx.writeAndFlush(new DefaultHttp2HeadersFrame(head, true)).addListener(written(current));
            } else {
                ctx.write(new DefaultHttp2HeadersFrame(head, false), ctx.voidPromise());
                ByteBuf data = Unpooled.wrappedBuffer(fixed.data().asByteBuffer());
                ctx.writeAndFlush(new DefaultHttp2DataFrame(data, true)).addListener(written(current));
            }
            return;
        }
        long length = body.contentLength();
        Http2Headers head = H2Heads.request(current.request, current.endpoint, length);
        if (length == 0) {
            // An empty body (a proxied GET's) ends the stream with the head; the body is still read
            // to its end, so a body that breaks or turns out longer fails the call as any other.
            endedWithHead = true;
            ctx.write(new DefaultHttp2HeadersFrame(head, true)).addListener(written(current));
        } else {
            ctx.write(new DefaultHttp2HeadersFrame(head, false), ctx.voidPromise());
        }
        RequestBodyWriter writer = new RequestBodyWriter(this, current, ctx.executor(), length);
        requestWriter = writer;
        try {
            BodySources.subscribe(body, writer);
        } catch (RuntimeException e) {
            writer.onError(e);
        }
        ctx.flush();
    }

    /**
     * Whether another chunk may go: while less than 64 KiB of the body waits to leave (for the peer's
     * window, or the socket). Counted here rather than read from the stream channel's writability,
     * which a new stream's channel reports late, stalling a body until some other event.
     */
    @Override
    public boolean isWritable(ClientCall forCall) {
        return call == forCall && unsent < MAX_UNSENT;
    }

    @Override
    public void writeBodyChunk(ClientCall forCall, ByteBuf chunk) {
        if (call != forCall || !chunk.isReadable()) {
            chunk.release();
            return;
        }
        int size = chunk.readableBytes();
        unsent += size;
        ctx.writeAndFlush(new DefaultHttp2DataFrame(chunk, false)).addListener(done -> {
            unsent -= size;
            RequestBodyWriter writer = requestWriter;
            if (writer != null && done.isSuccess()) {
                writer.requestMore();
            }
        });
    }

    @Override
    public void writeBodyEnd(ClientCall forCall, HttpHeaders trailers) {
        if (call != forCall) {
            return;
        }
        requestWriter = null;
        if (endedWithHead) {
            return;
        }
        Object last = trailers.isEmpty()
                ? new DefaultHttp2DataFrame(true)
                : new DefaultHttp2HeadersFrame(H2Heads.trailers(trailers), true);
        ctx.writeAndFlush(last).addListener(written(forCall));
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
        if (call == forCall && !paused) {
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

    /** The caller gave up: the stream is reset with CANCEL (RFC 9113, section 8.7); the connection stays. */
    @Override
    public void abandon(ClientCall forCall) {
        if (call != forCall) {
            return;
        }
        InboundBody body = responseBody;
        end();
        if (body != null) {
            body.onFailure(new CancellationException("the call was cancelled"));
        }
    }

    void checkDeadlines(long now) {
        ClientCall current = call;
        if (current == null) {
            return;
        }
        if (current.callExpired(now)) {
            fail(new CallTimeoutException(current.endpoint, current.timeouts.call(), true, paused));
        } else if (!headReceived) {
            if (responseDeadline != 0 && now - responseDeadline >= 0) {
                fail(new ResponseTimeoutException(current.endpoint, current.timeouts.responseHeaders(), true));
            }
        } else if (responseBody != null
                && !paused
                && current.bodyIdleNanos > 0
                && now - lastReadNanos >= current.bodyIdleNanos) {
            fail(new BodyTimeoutException(current.endpoint, current.timeouts.bodyIdle(), true));
        }
    }

    /** The connection is closing with the client: the call fails. */
    void clientClosed() {
        fail(new ConnectionClosedException("the client was closed", true, null));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (call == null) {
            ReferenceCountUtil.release(msg);
        } else if (msg instanceof Http2DataFrame data) {
            onData(data);
        } else if (msg instanceof Http2HeadersFrame headers) {
            onHeaders(headers);
        } else if (msg instanceof Http2ResetFrame reset) {
            onReset(reset);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof Http2GoAwayFrame goAway) {
            // Sent only to streams above the last stream id: the upstream never processed this one.
            unprocessed = !headReceived;
            goAway.release();
            return;
        }
        if (event instanceof Http2ResetFrame reset) {
            // The multiplexer delivers a peer's RST_STREAM as an event, then closes the stream.
            if (call != null) {
                onReset(reset);
            }
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        ClientCall current = call;
        if (current != null) {
            if (unprocessed && current.mayResendUnprocessed()) {
                end();
                current.retriedAfter =
                        new ConnectionClosedException("the upstream did not process the stream", false, null);
                current.requestSent = false;
                connection.pool.acquire(current);
            } else {
                String stage = headReceived ? "the response body was complete" : "the response headers arrived";
                fail(new ConnectionClosedException(
                        "the stream to " + current.endpoint + " closed before " + stage, true, null));
            }
        }
        connection.streamClosed(this);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (call != null) {
            fail(new InvalidResponseException("cannot read the response of " + call.endpoint, cause));
        }
    }

    private void onHeaders(Http2HeadersFrame frame) {
        lastReadNanos = System.nanoTime();
        if (headReceived) {
            onTrailers(frame);
            return;
        }
        Http2Headers block = frame.headers();
        int code;
        try {
            code = Integer.parseInt(String.valueOf(block.status()));
        } catch (NumberFormatException e) {
            fail(invalid("a response without a valid :status", e));
            return;
        }
        if (code < 200) {
            return; // RFC 9113, section 8.1: interim responses precede the final one.
        }
        if (code > 599) {
            fail(invalid("status " + code, null));
            return;
        }
        HttpHeaders headers;
        try {
            headers = H2Heads.fields(block);
        } catch (IllegalArgumentException e) {
            fail(invalid("an invalid header field (" + e.getMessage() + ")", e));
            return;
        }
        headReceived = true;
        responseDeadline = 0;
        ClientCall current = call;
        if (!requestDone && code >= 400) {
            stopRequestBody();
        }
        boolean bodyless = frame.isEndStream() || current.isHead() || code == 204 || code == 304;
        HttpBody body;
        if (bodyless) {
            body = HttpBody.empty();
        } else {
            responseBody = new InboundBody(ctx.executor(), current, contentLength(headers));
            body = new ResponseBody(responseBody, current);
        }
        HttpResponse response = HttpResponse.received(H2Heads.PROTOCOL, HttpStatus.of(code), headers, body);
        if (bodyless) {
            deliver(current, response, null);
            if (call == current) {
                responseEnded(null, HttpHeaders.empty());
            }
        } else {
            heldResponse = response;
        }
    }

    /** A response still held at the end of a read has more body to come: its head goes now. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (heldResponse != null) {
            deliverHeld();
        }
        ctx.fireChannelReadComplete();
    }

    private void deliverHeld() {
        HttpResponse response = heldResponse;
        heldResponse = null;
        deliver(call, response, responseBody);
    }

    /** Completes the call with its response; a call given up on meanwhile drops the response's body. */
    private void deliver(ClientCall to, HttpResponse response, InboundBody body) {
        if (!to.deliver(response)) {
            abandon(to);
            if (body != null) {
                body.discard();
            }
        }
    }

    private void onTrailers(Http2HeadersFrame frame) {
        if (!frame.isEndStream()) {
            fail(invalid("a second header block that does not end the stream", null));
            return;
        }
        HttpHeaders trailers;
        try {
            trailers = H2Heads.fields(frame.headers());
        } catch (IllegalArgumentException e) {
            fail(invalid("an invalid trailer field (" + e.getMessage() + ")", e));
            return;
        }
        responseEnded(responseBody, trailers);
    }

    private void onData(Http2DataFrame frame) {
        lastReadNanos = System.nanoTime();
        InboundBody body = responseBody;
        if (!headReceived) {
            frame.release();
            fail(invalid("data before the response headers", null));
            return;
        }
        if (body != null && frame.content().isReadable()) {
            body.onChunk(frame.content());
        } else {
            frame.release();
        }
        if (frame.isEndStream() && call != null) {
            responseEnded(body, HttpHeaders.empty());
        }
    }

    private void onReset(Http2ResetFrame reset) {
        if (reset.errorCode() == Http2Error.REFUSED_STREAM.code() && !headReceived) {
            unprocessed = true; // RFC 9113, section 8.7: nothing of the stream was processed.
            return; // The stream's close follows and sends the call elsewhere.
        }
        fail(new ConnectionClosedException(
                call.endpoint + " reset the stream (" + Http2Error.valueOf(reset.errorCode()) + ")", true, null));
    }

    private ChannelFutureListener written(ClientCall forCall) {
        return done -> {
            if (done.isSuccess() && call == forCall) {
                requestDone = true;
                long deadline = forCall.requestWritten(headReceived);
                if (deadline != 0) {
                    responseDeadline = deadline;
                }
            }
        };
    }

    /** The upstream refused the request early: its body's source stops (as for HTTP/1.1, RFC 9112 9.5). */
    private void stopRequestBody() {
        RequestBodyWriter writer = requestWriter;
        requestWriter = null;
        if (writer != null) {
            writer.cancel();
        }
    }

    /**
     * The response ended. A request still being sent then is stopped and its stream reset: the
     * upstream answered in full (a gRPC server ending a call, say) and reads no more of it.
     */
    private void responseEnded(InboundBody body, HttpHeaders trailers) {
        ClientCall current = call;
        HttpResponse held = heldResponse;
        heldResponse = null;
        responseBody = null;
        end(!requestDone);
        if (body != null) {
            body.onEnd(trailers);
        }
        if (held != null) {
            deliver(current, held, body);
        }
    }

    /** Fails the call, or its response body once the head was delivered, and resets the stream. */
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
        end();
        if (!afterHead) {
            failed.fail(cause);
        } else if (body != null) {
            body.onFailure(cause);
        }
    }

    /** Lets the call go and resets the stream with CANCEL if it is still open. */
    private void end() {
        end(true);
    }

    /**
     * Lets the call go; {@code reset} closes the stream channel, which resets a stream still open with
     * CANCEL. A stream that ended both ways is left to the codec, which closes it once it has read the
     * end: closed earlier, in the middle of that read, it would send a needless RST_STREAM.
     */
    private void end(boolean reset) {
        ClientCall current = call;
        call = null;
        current.state = ClientCall.DONE;
        current.connection = null;
        responseBody = null;
        heldResponse = null;
        RequestBodyWriter writer = requestWriter;
        requestWriter = null;
        if (writer != null) {
            writer.cancel();
        }
        if (paused) {
            paused = false;
            ctx.channel().config().setAutoRead(true);
        }
        if (reset) {
            ctx.close();
        }
    }

    private static long contentLength(HttpHeaders headers) {
        String value = headers.get("content-length");
        if (value == null) {
            return -1;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private InvalidResponseException invalid(String what, Throwable cause) {
        return new InvalidResponseException(connection.pool.endpoint + " sent " + what, cause);
    }
}

package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.concurrent.EventExecutor;
import io.parry.http.ContentTooLargeException;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.spi.FixedBody;
import io.parry.server.EndedBy;
import io.parry.server.Rejection;
import io.parry.server.RequestContext;
import io.parry.server.TlsInfo;
import io.parry.transport.spi.BodySources;
import io.parry.transport.spi.DataBuffers;
import io.parry.transport.spi.InboundBody;
import io.parry.transport.spi.RawBody;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The HTTP/2 framing of one request stream, and the {@link ExchangeFraming} its {@link Exchange}
 * runs on: turns the header block into the request, feeds the exchange its DATA frames and trailers,
 * and writes the response as HEADERS, DATA and trailing HEADERS frames as soon as it is ready.
 *
 * <p>Flow control is the request body's backpressure: while the body's reader is behind, the bytes
 * of the DATA frames it has not taken are not given back to the client's window, which stops this
 * stream and no other (RFC 9113, section 5.2). A streamed response body is pulled one chunk at a
 * time while the stream may write. Every method runs on the connection's event loop.
 */
final class Http2StreamFraming implements ExchangeFraming {
    private static final byte[] CONTINUE_STATUS = {'1', '0', '0'};

    private final Http2ServerConnection connection;
    private final Http2Stream stream;
    private Exchange exchange;
    /** The request body while it arrives; {@code null} before, after, and for a request without one. */
    private InboundBody body;

    private boolean requestEnded;
    private boolean bodyPaused;
    /** Request body bytes received while its reader was behind: given back to the window when it catches up. */
    private int heldBytes;

    private boolean awaitingContinue;
    /** The server refused the request body (too large): the client is asked to stop sending it. */
    private boolean refusedBody;

    private Http2BodyWriter writer;
    /** Whether the response found the stream unwritable when it last asked, and waits to be woken. */
    private boolean waiting;

    private long stalledSinceNanos;
    private boolean closed;

    Http2StreamFraming(Http2ServerConnection connection, Http2Stream stream) {
        this.connection = connection;
        this.stream = stream;
    }

    /**
     * The request's header block arrived at {@code nanos}; {@code end} when the request has no body,
     * {@code decoded} when HPACK's decoder checked the block (see {@link Http2Requests#fields}).
     */
    void headRead(Http2Headers headers, boolean end, long nanos, boolean decoded) {
        exchange = new Exchange(this, stream.id(), Http2ServerConnection.PROTOCOL, nanos);
        requestEnded = end;
        ServerRuntime runtime = connection.runtime;
        Http2Requests requests = connection.requests;
        HttpRequest request;
        long length;
        try {
            HttpHeaders fields = requests.fields(headers, decoded);
            request = requests.request(headers, fields, runtime);
            length = requests.contentLength();
            RequestChecks.Refusal misdirected =
                    connection.tls == null ? null : connection.tls.misdirected(requests.host());
            if (misdirected != null) {
                throw new Http2Requests.RefusedHead(misdirected);
            }
            if (length > runtime.limits.maxBodySize()) {
                throw new Http2Requests.RefusedHead(new RequestChecks.Refusal(
                        HttpStatus.CONTENT_TOO_LARGE, Rejection.CONTENT_TOO_LARGE, "declared body too large"));
            }
            awaitingContinue = !end && requests.expectsContinue();
        } catch (Http2Requests.RefusedHead refused) {
            refuse(headers, refused.refusal);
            return;
        }
        if (!end) {
            body = new InboundBody(executor(), exchange, length);
            request = request.withBody(body);
        }
        exchange.requestRead(request, body);
        exchange.handling();
        exchange.dispatch();
    }

    /** Whether the client ended its side of the stream. */
    boolean requestEnded() {
        return requestEnded;
    }

    /** A DATA frame arrived; returns the bytes given back to the client's window now. */
    int dataRead(ByteBuf data, int padding, boolean end) {
        int bytes = data.readableBytes();
        requestEnded |= end;
        InboundBody current = body;
        if (current == null) {
            return bytes + padding; // Nobody reads this body any more: it is dropped.
        }
        if (!exchange.bodyReceived(bytes)) {
            bodyTooLarge(current);
            return bytes + padding;
        }
        // The body's subscriber, and stages such as aggregate(), run here: in the request's context.
        RequestContext previous = CurrentContext.enter(exchange);
        try {
            if (bytes > 0) {
                current.onChunk(data.retain());
            }
            if (end) {
                body = null;
                current.onEnd(HttpHeaders.empty());
            }
        } finally {
            CurrentContext.exit(exchange, previous);
        }
        if (bodyPaused && !end) {
            heldBytes += bytes;
            return padding;
        }
        return bytes + padding;
    }

    /** A second header block: the request's trailers, which must end the stream (RFC 9113, section 8.1). */
    void trailersRead(Http2Headers headers, boolean end) throws Http2Exception {
        if (!end) {
            throw Http2Exception.streamError(
                    stream.id(), Http2Error.PROTOCOL_ERROR, "Trailers without END_STREAM on stream %d", stream.id());
        }
        requestEnded = true;
        InboundBody current = body;
        if (current == null) {
            return;
        }
        body = null;
        HttpHeaders trailers;
        try {
            trailers = connection.requests.fields(headers, true);
        } catch (Http2Requests.RefusedHead e) {
            current.onFailure(new IOException("invalid trailer field"));
            connection.reset(stream, Http2Error.PROTOCOL_ERROR);
            return;
        }
        RequestContext previous = CurrentContext.enter(exchange);
        try {
            current.onEnd(trailers);
        } finally {
            CurrentContext.exit(exchange, previous);
        }
    }

    /** The client reset the stream: its request is abandoned when Netty closes the stream, right after. */
    void resetByClient(long errorCode) {
        if (exchange != null && !exchange.responseStarted()) {
            exchange.endedBy(EndedBy.CLIENT);
        }
    }

    /** The stream closed, whichever side ended it: whatever is still going on for it stops. */
    void streamClosed() {
        closed = true;
        if (waiting) {
            waiting = false;
            connection.writerWaiting(false);
        }
        InboundBody current = body;
        body = null;
        if (current != null) {
            current.onFailure(new IOException("stream " + stream.id() + " closed before its request body ended"));
        }
        if (writer != null) {
            writer.cancel();
            writer = null;
        }
        if (exchange != null) {
            ExchangeState state = exchange.state();
            if (state != ExchangeState.SENT && state != ExchangeState.DONE && state != ExchangeState.ABANDONED) {
                exchange.abandon();
            }
        }
    }

    void writabilityChanged() {
        stalledSinceNanos = 0;
        if (writer != null) {
            writer.requestMore();
        }
    }

    /** The channel is writable: a response waiting to pull more of its body tries again. */
    void resumeWriting() {
        if (writer != null) {
            writer.requestMore();
        }
    }

    /** Whether the stream may write now; when not, it waits for the connection to wake it. */
    boolean isWritable() {
        boolean writable = connection.isWritable(stream);
        if (writable == waiting && !closed) {
            waiting = !writable;
            connection.writerWaiting(waiting);
        }
        return writable;
    }

    /** Acts on the request deadline and on a response stalled by a zero window. */
    void checkDeadlines(long now) {
        if (exchange == null || closed) {
            return;
        }
        if (exchange.responseOverdue(now)) {
            connection.runtime.rejections.record(
                    Rejection.REQUEST_TIMEOUT, connection.remoteAddress(), "no response in time");
            refusedBody = body != null; // A body still arriving is refused with the 408.
            body = null;
            exchange.timedOut();
            return;
        }
        long timeout = connection.stallTimeoutNanos();
        if (timeout == 0 || !connection.windowClosed(stream)) {
            stalledSinceNanos = 0;
        } else if (stalledSinceNanos == 0) {
            stalledSinceNanos = now;
        } else if (now - stalledSinceNanos >= timeout) {
            connection.runtime.rejections.record(
                    Rejection.HTTP2_FLOW_CONTROL_STALL, connection.remoteAddress(), "stream window stalled");
            connection.reset(stream, Http2Error.CANCEL);
        }
    }

    private void bodyTooLarge(InboundBody current) {
        body = null;
        refusedBody = true;
        connection.runtime.rejections.record(Rejection.CONTENT_TOO_LARGE, connection.remoteAddress(), "body too large");
        exchange.endedBy(EndedBy.CLIENT);
        ContentTooLargeException failure = new ContentTooLargeException(connection.runtime.limits.maxBodySize());
        if (exchange.responseStarted()) {
            current.onFailure(failure);
            connection.reset(stream, Http2Error.CANCEL);
            return;
        }
        if (exchange.awaitsResponse()) {
            // Set first, so the handler's own answer to the failed body is dropped.
            exchange.respond(ErrorResponses.problem(exchange, HttpStatus.CONTENT_TOO_LARGE, "body too large"));
        }
        current.onFailure(failure);
        write();
    }

    /** Answers a head that may not proceed; the client is told to stop sending its body, if any. */
    private void refuse(Http2Headers headers, RequestChecks.Refusal refusal) {
        refusedBody = true;
        if (refusal.reason != null) {
            connection.runtime.rejections.record(refusal.reason, connection.remoteAddress(), refusal.what);
        }
        if (connection.runtime.logging) {
            try {
                exchange.headRefused(
                        HttpMethod.of(headers.method().toString()),
                        headers.path().toString());
            } catch (IllegalArgumentException e) {
                // Not a method token: the log shows neither method nor path.
            }
        }
        exchange.respond(refusal.response(exchange));
        write();
    }

    /** Writes the response now that it is set; HTTP/2 has no order between streams to wait for. */
    private void write() {
        if (closed || !exchange.responseReady()) {
            return;
        }
        awaitingContinue = false;
        HttpResponse response = exchange.startWriting();
        HttpBody responseBody = response.body();
        long length = responseBody.contentLength();
        Http2Headers headers = connection.responseHeaders(response, length);
        if (exchange.isHeadRequest() || response.status().forbidsBody()) {
            Exchange.release(response);
            writeLastHeaders(headers);
        } else if (responseBody instanceof FixedBody fixed) {
            writeFixed(headers, fixed.data());
        } else {
            ByteBuf whole = responseBody instanceof RawBody raw ? raw.takeReceived() : null;
            if (whole != null && (length < 0 || whole.readableBytes() == length)) {
                writeWhole(headers, whole);
                return;
            }
            if (whole != null) {
                whole.release();
                connection.reset(stream, Http2Error.INTERNAL_ERROR);
                return;
            }
            writeHeaders(headers, false);
            writer = new Http2BodyWriter(this, exchange, length);
            BodySources.subscribe(responseBody, writer);
        }
    }

    /** A fixed body leaves in one write with its head when the stream may send it whole now (the usual case). */
    private void writeFixed(Http2Headers headers, HttpData data) {
        exchange.bodyBytesSent(data.length());
        if (data.isEmpty()) {
            writeLastHeaders(headers);
        } else if (connection.mayWriteWhole(stream, data.length())) {
            connection.writeWhole(stream, headers, data, lastPromise());
            lastWritten();
        } else {
            encodeHeaders(headers, false);
            writeLastData(DataBuffers.wrap(data));
        }
    }

    private void writeWhole(Http2Headers headers, ByteBuf content) {
        exchange.bodyBytesSent(content.readableBytes());
        if (!content.isReadable()) {
            content.release();
            writeLastHeaders(headers);
            return;
        }
        // One flush for both frames, which writing the last one does.
        encodeHeaders(headers, false);
        writeLastData(content);
    }

    void writeHeaders(Http2Headers headers, boolean end) {
        encodeHeaders(headers, end);
        connection.flushUnlessReading();
    }

    private void encodeHeaders(Http2Headers headers, boolean end) {
        connection
                .encoder()
                .writeHeaders(
                        connection.context(),
                        stream.id(),
                        headers,
                        0,
                        end,
                        connection.context().newPromise());
    }

    void writeData(ByteBuf data) {
        connection
                .encoder()
                .writeData(
                        connection.context(),
                        stream.id(),
                        data,
                        0,
                        false,
                        connection.context().newPromise());
        connection.flushUnlessReading();
    }

    /** Writes the response's last frame, a header block (trailers, or a head without body). */
    void writeLastHeaders(Http2Headers headers) {
        ChannelPromise promise = lastPromise();
        connection.encoder().writeHeaders(connection.context(), stream.id(), headers, 0, true, promise);
        lastWritten();
    }

    void writeLastData(ByteBuf data) {
        ChannelPromise promise = lastPromise();
        connection.encoder().writeData(connection.context(), stream.id(), data, 0, true, promise);
        lastWritten();
    }

    private ChannelPromise lastPromise() {
        writer = null;
        Exchange current = exchange;
        boolean listen = current.lastHandedOver();
        ChannelPromise promise = connection.context().newPromise();
        if (listen) {
            promise.addListener(future -> current.end(future.isSuccess()));
        }
        if (refusedBody && !requestEnded) {
            // RFC 9113, section 8.1: the server refused a body still arriving; once the answer has
            // left, RST_STREAM with NO_ERROR asks the client to stop sending it. A handler's early
            // answer leaves the stream open instead, and the rest of the body is read and dropped.
            promise.addListener(future -> {
                if (!requestEnded && !closed) {
                    connection.reset(stream, Http2Error.NO_ERROR);
                }
            });
        }
        return promise;
    }

    private void lastWritten() {
        exchange.discardBody();
        connection.flushUnlessReading();
    }

    /** The response body failed after its head left: the stream is reset, so it cannot look complete. */
    void responseFailed() {
        writer = null;
        connection.reset(stream, Http2Error.INTERNAL_ERROR);
    }

    @Override
    public ServerRuntime runtime() {
        return connection.runtime;
    }

    @Override
    public EventExecutor executor() {
        return connection.executor();
    }

    @Override
    public String connectionId() {
        return connection.connectionId();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return connection.remoteAddress();
    }

    @Override
    public TlsInfo tls() {
        return connection.tls == null ? null : connection.tls.info();
    }

    @Override
    public InetSocketAddress localAddress() {
        return connection.localAddress();
    }

    @Override
    public void pauseRequestBody() {
        bodyPaused = true;
    }

    /** The reader caught up: the bytes held back go back to the client's window. */
    @Override
    public void resumeRequestBody() {
        bodyPaused = false;
        int bytes = heldBytes;
        heldBytes = 0;
        if (bytes == 0 || closed) {
            return;
        }
        try {
            connection.decoder().flowController().consumeBytes(stream, bytes);
            connection.flushUnlessReading();
        } catch (Http2Exception e) {
            connection.onError(connection.context(), true, e);
        }
    }

    /** The body was asked for: a client waiting for it gets 100 Continue (RFC 9110, section 10.1.1). */
    @Override
    public void bodyDemanded(Exchange exchange) {
        if (awaitingContinue && !closed && !exchange.responseStarted()) {
            awaitingContinue = false;
            writeHeaders(
                    new DefaultHttp2Headers(false, 1).status(new io.netty.util.AsciiString(CONTINUE_STATUS)), false);
        }
    }

    @Override
    public boolean isOpen() {
        return !closed && connection.context().channel().isActive();
    }

    @Override
    public void responseReady(Exchange exchange) {
        write();
    }
}

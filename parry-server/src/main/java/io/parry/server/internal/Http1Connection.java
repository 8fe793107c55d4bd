package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.EventExecutor;
import io.parry.http.ContentTooLargeException;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.server.EndedBy;
import io.parry.server.Rejection;
import io.parry.server.RequestContext;
import io.parry.server.TlsInfo;
import io.parry.transport.spi.ConnectionTakeover;
import io.parry.transport.spi.InboundBody;
import io.parry.transport.spi.ReceivedFields;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP/1.1 framing of one connection, its reading side and the {@link ExchangeFraming} its
 * exchanges run on: turns each decoded head into an {@link Exchange} after the request checks,
 * feeds the exchange its body, keeps the exchanges in arrival order for the {@link ResponseWriter},
 * and acts on the connection's deadlines when its {@link ConnectionSweeper} asks. A head or body that
 * breaks a rule is answered here (400, 408, 413, 414, 417, 431), after the responses before it, and
 * the connection closes after that answer.
 *
 * <p>What belongs to HTTP/1.x alone stays in this class and its writer, not in the exchange: the
 * version, keep-alive, {@code Expect: 100-continue}, pipelining, and which response the connection
 * closes after. Every method runs on the connection's event loop.
 */
final class Http1Connection extends ChannelDuplexHandler implements ExchangeFraming, SweptConnection {
    static final String HTTP_1_0 = "HTTP/1.0";
    static final String HTTP_1_1 = "HTTP/1.1";
    static final int PAUSED_BY_BODY = 1;
    static final int PAUSED_BY_PIPELINE = 2;
    static final int PAUSED_BY_REJECTION = 4;
    static final int PAUSED_BY_UPGRADE = 8;

    private static final Logger log = LoggerFactory.getLogger(Http1Connection.class);
    /**
     * How long a connection may sit idle before it drops the head it keeps for a repetition: a client that waits
     * this long between requests gains nothing measurable from it, and an idle connection should hold little.
     */
    static final long REPEATED_HEAD_IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ServerRuntime runtime;
    private final StrictRequestDecoder decoder;
    /** The connection's TLS, or {@code null} over cleartext. */
    private final ConnectionTls tls;

    private final long id;
    private String idText;
    private final ArrayDeque<Exchange> exchanges = new ArrayDeque<>(2);
    /** Links in the event loop's {@link ConnectionSweeper}. */
    private SweptConnection previous;

    private SweptConnection next;
    private ChannelHandlerContext ctx;
    private ResponseWriter writer;
    private Exchange receiving;
    private int sequence;
    private int pauseReasons;
    private boolean rejecting;
    /**
     * The exchange whose request asked for an upgrade: the decoder holds what follows it until its
     * response says whether the connection switches protocols.
     */
    private Exchange upgrading;
    /** A request without keep-alive was accepted: requests pipelined after it are not processed. */
    private boolean lastRequestRead;

    /**
     * The method and target of the last origin-form request line this connection read, and the last request made
     * of that line, without a body; and the last Host value found valid. A client sends the same text request
     * after request, which then needs no second look: the same line again takes that request's target, the same
     * fields its headers, and both together are that request.
     */
    private io.netty.handler.codec.http.HttpMethod lastMethod;

    private String lastTarget;
    private HttpRequest lastLine;
    private String validHost;

    /**
     * The last head accepted by the full path whose every check depends on its bytes alone (HTTP/1.1, origin-form,
     * keep-alive, no expectation), its request without a body, and its body's length. The decoder hands on this same
     * object again for the same bytes ({@link RepeatedHead}); the checks would then give the same answers, as the
     * listener's limits, its target normalisation and the connection's TLS do not change while it is open, and the
     * Host found valid stays valid.
     */
    private io.netty.handler.codec.http.HttpRequest acceptedHead;

    private HttpRequest acceptedRequest;
    private long acceptedBodyLength;

    private boolean closeWhenIdle;
    private long lastActivityNanos;
    private long unwritableSinceNanos;
    private ConnectionSweeper sweeper;

    Http1Connection(ServerRuntime runtime, StrictRequestDecoder decoder, ConnectionTls tls) {
        this.runtime = runtime;
        this.decoder = decoder;
        this.tls = tls;
        this.id = runtime.nextConnectionId();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.writer = new ResponseWriter(this, ctx, exchanges);
        if (ctx.channel().isActive()) {
            watch(ctx); // An accepted socket is active before its channelActive event, or long before after TLS.
        }
    }

    /**
     * Taken out of the pipeline while the connection stays open: another framing (HTTP/2 by prior
     * knowledge) takes the connection over, with its place in the count and the sweeper's list.
     */
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (sweeper != null) {
            sweeper.remove(this);
            sweeper = null;
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        watch(ctx);
        ctx.fireChannelActive();
    }

    /** Puts the connection under its event loop's sweeper, which acts on its deadlines. */
    private void watch(ChannelHandlerContext ctx) {
        if (sweeper != null) {
            return;
        }
        lastActivityNanos = System.nanoTime();
        sweeper = runtime.connections.sweeper(ctx.channel().eventLoop());
        sweeper.add(this);
        // A stop drains the sweepers it finds, each on its loop: a connection that joins its sweeper after that
        // drain (or a sweeper the stop never saw) stayed open until its first request or the grace period. The
        // stop marks the server draining before it drains, so either it drains this connection or this sees it.
        if (runtime.isDraining()) {
            drain();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        writer.readStarted();
        if (msg instanceof io.netty.handler.codec.http.HttpRequest) {
            onRequestHead((io.netty.handler.codec.http.HttpRequest) msg);
        } else if (msg instanceof HttpContent) {
            // The body's subscriber, and stages such as aggregate(), run here: in the request's context.
            Exchange exchange = receiving;
            RequestContext previous = exchange != null ? CurrentContext.enter(exchange) : null;
            try {
                onContent((HttpContent) msg);
            } finally {
                if (exchange != null) {
                    CurrentContext.exit(exchange, previous);
                }
            }
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        writer.readCompleted();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            unwritableSinceNanos = 0;
            writer.writable();
        } else {
            unwritableSinceNanos = System.nanoTime();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (sweeper != null) {
            sweeper.remove(this);
            sweeper = null;
            runtime.connections.closed();
        }
        if (receiving != null) {
            receiving.body().onFailure(new ClosedChannelException());
            receiving = null;
        }
        writer.connectionClosed();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A broken TLS record arrives wrapped by the SslHandler: it is the peer's doing, as a reset is.
        if (cause instanceof IOException
                || (cause instanceof DecoderException && cause.getCause() instanceof SSLException)) {
            log.debug("Connection {} failed: {}", id, cause.toString());
        } else {
            log.warn("Connection {} failed", id, cause);
        }
        ctx.close();
    }

    private void onRequestHead(io.netty.handler.codec.http.HttpRequest head) {
        ReferenceCountUtil.release(head);
        if (rejecting || lastRequestRead) {
            if (decoder.isHolding()) {
                // Ignored like any request here: what follows is read and dropped, not held while the connection
                // lingers.
                ctx.executor().execute(this::upgradeDeclined);
            }
            return; // RFC 9112, section 9.6: nothing after the request that closes is processed.
        }
        if (head == acceptedHead) {
            Exchange exchange = new Exchange(this, ++sequence, HTTP_1_1, decoder.readNanos());
            readRepeated(exchange);
            accept(exchange);
            return;
        }
        acceptedHead = null;
        acceptedRequest = null;
        String protocol = HttpVersion.HTTP_1_0.equals(head.protocolVersion()) ? HTTP_1_0 : HTTP_1_1;
        Exchange exchange = new Exchange(this, ++sequence, protocol, decoder.readNanos());
        if (decoder.isHolding()) {
            upgrading = exchange;
        }
        if (head.decoderResult().isFailure()) {
            // Only a header block that was too long comes with the request line the decoder read.
            if (head.decoderResult().cause() instanceof TooLongHttpHeaderException) {
                rememberRefusedHead(exchange, head);
            }
            refuse(exchange, RequestChecks.decoderFailure(head.decoderResult()));
            return;
        }
        RequestChecks.Refusal refusal = RequestChecks.check(head, runtime.limits);
        if (refusal == null) {
            refusal = prepare(exchange, head);
        }
        if (refusal != null) {
            rememberRefusedHead(exchange, head);
            refuse(exchange, refusal);
            return;
        }
        if (runtime.http2.upgrade()
                && exchanges.isEmpty()
                && exchange.body() == null
                && H2cUpgrade.requested(head)
                && H2cUpgrade.upgrade(ctx, head, runtime)) {
            return;
        }
        if (acceptedRequest != null) {
            acceptedHead = head;
        }
        accept(exchange);
    }

    /** Takes an exchange whose request was read and may proceed: in line for its response, and to its handler. */
    private void accept(Exchange exchange) {
        exchange.handling();
        exchanges.add(exchange);
        if (upgrading == exchange) {
            pauseReading(PAUSED_BY_UPGRADE);
        }
        if (exchanges.size() >= runtime.limits.maxPipelinedRequests()) {
            pauseReading(PAUSED_BY_PIPELINE);
        }
        if (exchange.request().path().equals("*")) {
            answerAsteriskForm(exchange);
        } else {
            exchange.dispatch();
        }
    }

    /** Reads the request of a head that repeats the accepted one: only what is new per request is made. */
    private void readRepeated(Exchange exchange) {
        HttpRequest request = acceptedRequest;
        InboundBody body = null;
        if (acceptedBodyLength > 0) {
            body = new InboundBody(ctx.executor(), exchange, acceptedBodyLength);
            request = request.withBody(body);
            receiving = exchange;
        }
        exchange.requestRead(request, body);
        writer.expectContinue(null);
    }

    /** Keeps what the request log needs of a head that will not become a request. */
    private void rememberRefusedHead(Exchange exchange, io.netty.handler.codec.http.HttpRequest head) {
        if (!runtime.logging || exchange.requestOrNull() != null) {
            return;
        }
        HttpMethod method;
        try {
            method = HttpMethod.of(head.method().name());
        } catch (IllegalArgumentException e) {
            return; // Not a method token: the log shows neither method nor path.
        }
        exchange.headRefused(method, head.uri());
    }

    /** Builds the exchange's request; a refusal when the head cannot be accepted. */
    private RequestChecks.Refusal prepare(Exchange exchange, io.netty.handler.codec.http.HttpRequest head) {
        boolean http10 = isHttp10(exchange);
        boolean expectContinue = false;
        ReceivedFields fields = ReceivedFields.of(head.headers());
        long contentLength;
        try {
            contentLength = fields.contentLength();
        } catch (NumberFormatException e) {
            return RequestChecks.badRequest("invalid Content-Length");
        }
        // RFC 9112, section 6.3: Netty refuses repeated Content-Length fields in HTTP/1.1 only; a 1.0
        // request with two must not be framed by the first when the next hop may take the last.
        if (contentLength >= 0 && fields.hadRepeatedContentLength()) {
            return RequestChecks.badRequest("more than one Content-Length field");
        }
        boolean chunked = fields.isChunked();
        if (contentLength > runtime.limits.maxBodySize()) {
            return new RequestChecks.Refusal(
                    HttpStatus.CONTENT_TOO_LARGE, Rejection.CONTENT_TOO_LARGE, "declared body too large");
        }
        boolean hasBody = chunked || contentLength > 0;
        String expect = fields.get(HttpHeaderNames.EXPECT);
        // RFC 9110, section 10.1.1: only 100-continue is defined; a 1.0 server ignores Expect.
        if (expect != null && !http10) {
            if (!expect.equalsIgnoreCase("100-continue")) {
                return new RequestChecks.Refusal(
                        HttpStatus.EXPECTATION_FAILED, Rejection.EXPECTATION_FAILED, "unknown expectation");
            }
            expectContinue = hasBody;
        }
        HttpRequest request;
        HttpHeaders headers;
        try {
            headers = ReceivedFields.toParry(fields, lastLine == null ? null : lastLine.headers());
            request = request(head, headers);
        } catch (PathRedirect redirect) {
            return RequestChecks.redirect(redirect.location());
        } catch (IllegalArgumentException e) {
            return RequestChecks.badRequest(e.getMessage());
        }
        RequestChecks.Refusal host = RequestChecks.checkHost(headers, !http10, validHost);
        if (host != null) {
            return host;
        }
        validHost = headers.get("host");
        RequestChecks.Refusal misdirected = tls == null ? null : tls.misdirected(validHost);
        if (misdirected != null) {
            return misdirected;
        }
        if (head.uri().equals("*") && !head.method().name().equals("OPTIONS")) {
            return RequestChecks.badRequest("the * target is for OPTIONS only");
        }
        boolean keepAlive = fields.isKeepAlive(head.protocolVersion());
        // An Upgrade's answer depends on the exchanges in flight (h2c), not on the bytes alone.
        if (keepAlive
                && !http10
                && expect == null
                && !chunked
                && request == lastLine
                && !fields.contains(HttpHeaderNames.UPGRADE)) {
            acceptedRequest = request;
            acceptedBodyLength = Math.max(contentLength, 0);
        }
        InboundBody body = null;
        if (hasBody) {
            body = new InboundBody(ctx.executor(), exchange, chunked ? -1 : contentLength);
            request = request.withBody(body);
            receiving = exchange;
        }
        exchange.requestRead(request, body);
        if (!keepAlive) {
            writer.closeAfter(exchange);
            lastRequestRead = true;
        }
        writer.expectContinue(expectContinue ? exchange : null);
        return null;
    }

    /**
     * The request of this head, its target as the listener normalises it, without a body. The last origin-form
     * request is kept: the same method and text again take its parsed target, with these fields, and with the
     * same headers object it is the request (an absolute-form target's authority replaces the Host field, so
     * such a line is built each time).
     *
     * @throws PathRedirect if the listener redirects the target
     * @throws IllegalArgumentException if the target is refused; it is not kept
     */
    private HttpRequest request(io.netty.handler.codec.http.HttpRequest head, HttpHeaders headers) {
        String target = head.uri();
        if (head.method() == lastMethod && target.equals(lastTarget)) {
            if (lastLine.headers() != headers) {
                lastLine = lastLine.withHeaders(headers);
            }
            return lastLine;
        }
        String normal = runtime.paths.normalize(target);
        HttpRequest request = HttpRequest.builder(HttpMethod.of(head.method().name()), normal)
                .headers(headers)
                .build();
        if (normal.startsWith("/")) {
            lastMethod = head.method();
            lastTarget = target;
            lastLine = request;
        }
        return request;
    }

    private void answerAsteriskForm(Exchange exchange) {
        if (exchange.request().method().equals(HttpMethod.OPTIONS)) {
            exchange.answered(
                    HttpResponse.of(HttpStatus.OK).withHeader("allow", "GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS"),
                    null);
        } else {
            exchange.answered(
                    ErrorResponses.problem(exchange, HttpStatus.BAD_REQUEST, "The * target is for OPTIONS only."),
                    null);
        }
    }

    private void onContent(HttpContent content) {
        Exchange exchange = receiving;
        if (rejecting || exchange == null) {
            content.release();
            return;
        }
        if (content.decoderResult().isFailure()) {
            content.release();
            failBody(
                    exchange,
                    RequestChecks.bodyDecoderFailure(content.decoderResult()),
                    new HttpStatusException(HttpStatus.BAD_REQUEST, "malformed body"));
            return;
        }
        ByteBuf data = content.content();
        if (!exchange.bodyReceived(data.readableBytes())) {
            content.release();
            failBody(
                    exchange,
                    new RequestChecks.Refusal(
                            HttpStatus.CONTENT_TOO_LARGE, Rejection.CONTENT_TOO_LARGE, "body too large"),
                    new ContentTooLargeException(runtime.limits.maxBodySize()));
            return;
        }
        if (data.isReadable()) {
            exchange.body().onChunk(data);
        } else {
            content.release();
        }
        if (content instanceof LastHttpContent) {
            HttpHeaders trailers;
            try {
                trailers = ReceivedFields.toParry(((LastHttpContent) content).trailingHeaders());
            } catch (IllegalArgumentException e) {
                failBody(
                        exchange,
                        RequestChecks.badRequest("invalid trailer field"),
                        new HttpStatusException(HttpStatus.BAD_REQUEST, "invalid trailer field"));
                return;
            }
            receiving = null;
            exchange.body().onEnd(trailers);
        }
    }

    /**
     * The body being received broke a rule: the client gets the status if no response has started,
     * else the connection closes; either way the body's reader fails and nothing more is read.
     */
    private void failBody(Exchange exchange, RequestChecks.Refusal refusal, Throwable bodyFailure) {
        receiving = null;
        record(refusal);
        exchange.endedBy(EndedBy.CLIENT);
        stopReading();
        writer.closeAfter(exchange);
        if (exchange.responseStarted()) {
            exchange.body().onFailure(bodyFailure);
            writer.abort(exchange);
            return;
        }
        if (exchange.awaitsResponse()) {
            // Set first, so the handler's own answer to the failed body is dropped.
            exchange.respond(ErrorResponses.problem(exchange, refusal.status, refusal.what));
        }
        exchange.body().onFailure(bodyFailure);
        writer.writeReady();
    }

    /** The next head is read by the full path, whatever its bytes. */
    private void forgetRepeatedHead() {
        acceptedHead = null;
        acceptedRequest = null;
        decoder.forgetRepeatedHead();
    }

    /** Answers a request that may not proceed, after the responses before it, and closes. */
    private void refuse(Exchange exchange, RequestChecks.Refusal refusal) {
        forgetRepeatedHead();
        record(refusal);
        stopReading();
        writer.closeAfter(exchange);
        exchange.respond(refusal.response(exchange));
        exchanges.add(exchange);
        writer.writeReady();
    }

    private void record(RequestChecks.Refusal refusal) {
        if (refusal.reason == null) {
            return;
        }
        runtime.rejections.record(refusal.reason, ctx.channel().remoteAddress(), refusal.what);
    }

    private void stopReading() {
        rejecting = true;
        pauseReading(PAUSED_BY_REJECTION);
    }

    /** Called by the writer when an exchange's response has been written in full. */
    void exchangeFinished(Exchange exchange) {
        exchange.discardBody();
        if (upgrading == exchange) {
            upgrading = null;
            // Later: this runs inside the decoder's own read when the answer came at once.
            ctx.executor().execute(this::upgradeDeclined);
        }
        lastActivityNanos = clockNanos();
        if (exchanges.size() < runtime.limits.maxPipelinedRequests()) {
            resumeReading(PAUSED_BY_PIPELINE);
        }
        if (closeWhenIdle && exchanges.isEmpty() && decoder.headerStartNanos() == 0) {
            ctx.close();
        }
    }

    /**
     * Now, as a {@link System#nanoTime()} reading: during a read, the read's own (what is written then happens within
     * microseconds of it), so a response answered at once reads no clock of its own.
     */
    long clockNanos() {
        return writer.inRead() ? decoder.readNanos() : System.nanoTime();
    }

    /** The connection stays HTTP/1.1 after a request that asked for an upgrade: what follows it is decoded. */
    private void upgradeDeclined() {
        if (ctx.isRemoved() || !ctx.channel().isActive()) {
            return;
        }
        decoder.resumeDecoding(ctx.pipeline().context(decoder));
        resumeReading(PAUSED_BY_UPGRADE);
    }

    @Override
    public boolean canTakeOver(Exchange exchange) {
        return exchange == upgrading;
    }

    /**
     * The 101 head left: the channel goes to the taker without the HTTP/1.1 handlers, reading, and
     * still counted until it closes. The decoder leaves last, so the bytes it held after the request
     * reach the handlers the taker added.
     */
    void takeOver(ConnectionTakeover takeover) {
        upgrading = null;
        Channel channel = ctx.channel();
        if (!channel.isActive()) {
            takeover.abandoned(new ClosedChannelException());
            return;
        }
        ConnectionSweeper loopSweeper = sweeper;
        loopSweeper.remove(this);
        sweeper = null;
        new TakenOverConnection(channel, takeover, loopSweeper, runtime.connections).register();
        ChannelPipeline pipeline = channel.pipeline();
        pipeline.remove(HttpResponseEncoder.class);
        pipeline.remove(this);
        pauseReasons = 0;
        channel.config().setAutoRead(true);
        try {
            takeover.takeOver(channel);
            if (runtime.isDraining()) {
                takeover.drain();
            }
        } catch (RuntimeException e) {
            log.warn("Connection {} failed when taken over; closing", id, e);
            channel.close();
        }
        pipeline.remove(decoder);
    }

    /**
     * The body was asked for: a client waiting for 100 Continue gets it now, or, when responses to
     * earlier requests are still on their way, as soon as this exchange is the first in line (an
     * interim response belongs to the exchange whose response is next).
     */
    @Override
    public void bodyDemanded(Exchange exchange) {
        if (writer.awaitsContinue(exchange)) {
            writer.continueDemanded(exchange);
            if (exchanges.peek() == exchange) {
                writer.sendContinue(exchange);
            }
        }
    }

    /** Begins a graceful stop: close now if idle, else close after the last response in flight. */
    @Override
    public void drain() {
        closeWhenIdle = true;
        if (exchanges.isEmpty() && decoder.headerStartNanos() == 0) {
            ctx.close();
        }
    }

    boolean isDraining() {
        return closeWhenIdle;
    }

    void pauseReading(int reason) {
        if (pauseReasons == 0) {
            ctx.channel().config().setAutoRead(false);
        }
        pauseReasons |= reason;
    }

    void resumeReading(int reason) {
        if (pauseReasons == 0 || (pauseReasons & reason) == 0) {
            return;
        }
        pauseReasons &= ~reason;
        if (pauseReasons == 0) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /** Called by the sweeper every tick: acts on each deadline that has passed. */
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
        Exchange head = exchanges.peek();
        if (head == null) {
            long headerStart = decoder.headerStartNanos();
            if (headerStart != 0) {
                if (!rejecting && passed(headerStart, runtime.headerReadNanos, now)) {
                    headerReadTimedOut();
                }
            } else if (passed(lastActivityNanos, runtime.idleNanos, now)) {
                log.debug("Connection {} idle, closing", id);
                ctx.close();
            } else if (acceptedHead != null && passed(lastActivityNanos, REPEATED_HEAD_IDLE_NANOS, now)) {
                forgetRepeatedHead();
            }
        } else if (head.responseOverdue(now)) {
            requestTimedOut(head);
        }
    }

    private static boolean passed(long since, long timeout, long now) {
        return since != 0 && timeout > 0 && now - since >= timeout;
    }

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

    private void headerReadTimedOut() {
        Exchange exchange = new Exchange(this, ++sequence, HTTP_1_1, System.nanoTime());
        refuse(
                exchange,
                new RequestChecks.Refusal(
                        HttpStatus.REQUEST_TIMEOUT, Rejection.HEADER_READ_TIMEOUT, "header block too slow"));
    }

    private void requestTimedOut(Exchange head) {
        runtime.rejections.record(Rejection.REQUEST_TIMEOUT, ctx.channel().remoteAddress(), "no response in time");
        if (receiving == head) {
            receiving = null;
        }
        stopReading();
        writer.closeAfter(head);
        head.timedOut();
    }

    @Override
    public void pauseRequestBody() {
        pauseReading(PAUSED_BY_BODY);
    }

    @Override
    public void resumeRequestBody() {
        resumeReading(PAUSED_BY_BODY);
    }

    @Override
    public boolean isOpen() {
        return ctx.channel().isActive();
    }

    @Override
    public void responseReady(Exchange exchange) {
        writer.writeReady();
    }

    static boolean isHttp10(Exchange exchange) {
        return HTTP_1_0.equals(exchange.protocol());
    }

    @Override
    public ServerRuntime runtime() {
        return runtime;
    }

    /** The connection's id as request ids and log lines show it; made on first use, then kept. */
    @Override
    public String connectionId() {
        String text = idText;
        if (text == null) {
            text = Long.toString(id, 36);
            idText = text;
        }
        return text;
    }

    @Override
    public EventExecutor executor() {
        return ctx.executor();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) ctx.channel().remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) ctx.channel().localAddress();
    }

    @Override
    public TlsInfo tls() {
        return tls == null ? null : tls.info();
    }
}

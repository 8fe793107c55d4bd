package io.parry.benchmarks.baseline;

import static io.netty.handler.codec.http.HttpHeaderNames.CONTENT_LENGTH;
import static io.netty.handler.codec.http.HttpHeaderNames.CONTENT_TYPE;
import static io.netty.handler.codec.http.HttpHeaderNames.DATE;
import static io.netty.handler.codec.http.HttpHeaderNames.SERVER;
import static io.netty.handler.codec.http.HttpHeaderNames.TRANSFER_ENCODING;
import static io.netty.handler.codec.http.HttpHeaderValues.APPLICATION_JSON;
import static io.netty.handler.codec.http.HttpHeaderValues.APPLICATION_OCTET_STREAM;
import static io.netty.handler.codec.http.HttpHeaderValues.CHUNKED;
import static io.netty.handler.codec.http.HttpHeaderValues.TEXT_PLAIN;
import static io.netty.handler.codec.http.HttpVersion.HTTP_1_1;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;

/**
 * The responses the baseline sends, each with {@code Server}, {@code Date} and a body length.
 *
 * <p>Every call returns a new response that the caller writes once; the encoder then releases its body.
 */
final class Responses {
    private static final AsciiString SERVER_NAME = AsciiString.cached("netty-baseline");
    private static final String HELLO = "Hello, World!";

    /** Written by every plaintext response: never released, so each response sends a duplicate of it. */
    private static final ByteBuf HELLO_BYTES = Unpooled.unreleasableBuffer(
            Unpooled.directBuffer(HELLO.length()).writeBytes(HELLO.getBytes(StandardCharsets.US_ASCII)));

    /** Header values here are constants or server-formatted, so validating them per response is wasted work. */
    private static final HttpHeadersFactory HEADERS =
            DefaultHttpHeadersFactory.headersFactory().withValidation(false);

    private static final HttpHeadersFactory TRAILERS =
            DefaultHttpHeadersFactory.trailersFactory().withValidation(false);

    private Responses() {}

    /** {@code 200 text/plain Hello, World!}. */
    static FullHttpResponse plaintext() {
        return full(HttpResponseStatus.OK, TEXT_PLAIN, HELLO_BYTES.retainedDuplicate());
    }

    /** {@code 200 application/json {"message":"Hello, World!"}}, encoded for this response. */
    static FullHttpResponse json(ByteBufAllocator alloc) {
        ByteBuf body = alloc.buffer(32);
        JsonMessage.write(body, HELLO);
        return full(HttpResponseStatus.OK, APPLICATION_JSON, body);
    }

    /** An empty response with {@code status}, for 400 and 404. */
    static FullHttpResponse empty(HttpResponseStatus status) {
        return full(status, null, Unpooled.EMPTY_BUFFER);
    }

    /**
     * The head of an echo response: the request's {@code Content-Type} (or {@code application/octet-stream}), as
     * the hello example's echo sends it, and its {@code Content-Length} when it has one, else chunked.
     */
    static HttpResponse echoHead(HttpRequest request) {
        HttpResponse response = new DefaultHttpResponse(HTTP_1_1, HttpResponseStatus.OK, HEADERS);
        HttpHeaders headers = common(response.headers());
        String type = request.headers().get(CONTENT_TYPE);
        headers.set(CONTENT_TYPE, type != null ? type : APPLICATION_OCTET_STREAM);
        long length = HttpUtil.getContentLength(request, -1L);
        if (length >= 0 && !HttpUtil.isTransferEncodingChunked(request)) {
            headers.set(CONTENT_LENGTH, length);
        } else {
            headers.set(TRANSFER_ENCODING, CHUNKED);
        }
        return response;
    }

    private static FullHttpResponse full(HttpResponseStatus status, AsciiString type, ByteBuf body) {
        FullHttpResponse response = new DefaultFullHttpResponse(HTTP_1_1, status, body, HEADERS, TRAILERS);
        HttpHeaders headers = common(response.headers()).setInt(CONTENT_LENGTH, body.readableBytes());
        if (type != null) {
            headers.set(CONTENT_TYPE, type);
        }
        return response;
    }

    private static HttpHeaders common(HttpHeaders headers) {
        return headers.set(SERVER, SERVER_NAME).set(DATE, HttpDate.now());
    }
}

package io.parry.gateway.internal.config;

import io.parry.protection.CompressionFilter;
import io.parry.protection.RequestDecompressionFilter;
import io.parry.server.Handler;

/**
 * A route's compression (YAML {@code compression}, or the one under {@code defaults}): responses
 * compressed by the client's {@code Accept-Encoding}, and compressed request bodies inflated up to a
 * bound when {@code requestDecompression} is given.
 *
 * @param responses the response compression
 * @param requests the request decompression, or {@code null} for none
 */
public record CompressionConfig(CompressionFilter responses, RequestDecompressionFilter requests) {
    /** The handler inside these filters; request decompression runs inside, nearest the handler. */
    public Handler wrap(Handler handler) {
        Handler wrapped = requests == null ? handler : handler.with(requests);
        return wrapped.with(responses);
    }
}

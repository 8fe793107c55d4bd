package io.parry.client.internal;

import io.netty.buffer.ByteBuf;
import io.parry.http.HttpHeaders;

/**
 * What carries one call on the wire: an HTTP/1.1 connection ({@link ClientConnection}) or an HTTP/2
 * stream ({@link H2Stream}). The call and its request body writer talk to it only through this, on
 * its event loop; a method given a call that is no longer the one carried does nothing.
 */
interface CallStream {
    /** Whether another request body chunk can be written now. */
    boolean isWritable(ClientCall call);

    /** Writes a request body chunk, taking ownership of it. */
    void writeBodyChunk(ClientCall call, ByteBuf chunk);

    /** Ends the request body, with its trailers (empty for none). */
    void writeBodyEnd(ClientCall call, HttpHeaders trailers);

    /** The request body failed: the call fails with a caller-caused failure. */
    void requestBodyFailed(ClientCall call, Throwable cause);

    /** Stops reading the response body until {@link #resumeReading}. */
    void pauseReading(ClientCall call);

    void resumeReading(ClientCall call);

    /** The caller gave up on the call or its body. */
    void abandon(ClientCall call);
}

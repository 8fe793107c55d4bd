/**
 * The Netty plumbing Parry's own modules share: the server, the client and the proxy build on these
 * types, applications do not.
 *
 * <p>Each type states its contract in its Javadoc: which thread calls it, who owns (and releases) each
 * buffer, and what it does on failure. They expose Netty types ({@code ByteBuf}, event loops), which
 * Parry's public API never does, and may change in any release as the server and client need; only
 * {@link io.parry.transport.TransportKind} is API for applications.
 *
 * <ul>
 *   <li>Transport choice and event loops: {@link io.parry.transport.spi.Transport}.
 *   <li>Bodies received from a socket, streamed with backpressure and forwarded without a copy: {@link
 *       io.parry.transport.spi.InboundBody}, {@link io.parry.transport.spi.RawBody}, {@link
 *       io.parry.transport.spi.BodySources}, {@link io.parry.transport.spi.ByteBufSubscriber}, {@link
 *       io.parry.transport.spi.BodyFlow}.
 *   <li>A connection handed over by a 101 response (WebSocket endpoints, the proxy's relay): {@link
 *       io.parry.transport.spi.ConnectionTakeover}.
 *   <li>Socket failures that are this host's own shortage (descriptors, local ports), on every
 *       transport: {@link io.parry.transport.spi.LocalResources}.
 *   <li>Received header fields, one flat array: {@link io.parry.transport.spi.ReceivedFields}.
 *   <li>The calling request's context carried into client calls and scheduled tasks: {@link
 *       io.parry.transport.spi.CurrentCaller}, {@link io.parry.transport.spi.CallerContext}, {@link
 *       io.parry.transport.spi.TaskWrapper}, {@link io.parry.transport.spi.EventLoopScheduler}.
 *   <li>A connection handed over after {@code 101 Switching Protocols}: {@link
 *       io.parry.transport.spi.UpgradedChannel}.
 * </ul>
 */
package io.parry.transport.spi;

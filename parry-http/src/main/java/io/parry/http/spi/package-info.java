/**
 * What Parry's server, client and proxy need of the HTTP model beyond its public API, for framings
 * that write bodies and compare field names without allocating. Not for applications; may change in
 * any release.
 *
 * <ul>
 *   <li>{@link io.parry.http.spi.FixedBody}: a body whose bytes are all in memory, written in one piece.
 *   <li>{@link io.parry.http.spi.AggregatingSubscriber}: reads a body into one array within a bound, or
 *       cancels it unread ({@code cancelling()}), which releases what a body holds.
 *   <li>{@link io.parry.http.spi.Subscriptions}: a subscription that does nothing, and rejecting a
 *       second subscriber.
 *   <li>{@link io.parry.http.spi.AsciiCase}: case-insensitive comparison of ASCII field names (RFC 9110,
 *       section 5.1) without lower-casing copies.
 *   <li>{@link io.parry.http.spi.CheckedFields}: headers made from fields a decoder checked already
 *       (HTTP/2's HPACK), without checking them again.
 * </ul>
 */
package io.parry.http.spi;

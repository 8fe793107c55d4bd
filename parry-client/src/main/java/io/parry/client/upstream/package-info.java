/**
 * Upstream groups: named sets of {@link io.parry.client.Endpoint}s that pick an endpoint for each
 * call by a {@link io.parry.client.upstream.Balancing} strategy, skip endpoints that failed too often
 * ({@link io.parry.client.upstream.OutlierDetection}) or fail an active {@link
 * io.parry.client.upstream.HealthCheck}, and report each endpoint's {@link
 * io.parry.client.upstream.EndpointStatus}.
 *
 * <p>A caller such as the proxy selects an endpoint, tells the group when the call starts and how it
 * ended, and retries elsewhere by excluding the endpoints it tried:
 *
 * <pre>{@code
 * Upstream api = Upstream.builder("api")
 *         .endpoints(List.of(Endpoint.parse("10.0.0.7:8080"), Endpoint.parse("10.0.0.8:8080").withWeight(3)))
 *         .balancing(Balancing.WEIGHTED_ROUND_ROBIN)
 *         .outlierDetection(OutlierDetection.builder().consecutiveFailures(3).build())
 *         .healthCheck(HealthCheck.builder("/health").interval(Duration.ofSeconds(2)).build())
 *         .build();
 * api.startHealthChecks(client, scheduler);
 *
 * Set<Endpoint> tried = new HashSet<>();
 * Optional<Endpoint> next = api.select(endpoint -> !tried.contains(endpoint));
 * if (next.isEmpty()) {
 *     return HttpResponse.of(HttpStatus.SERVICE_UNAVAILABLE).toStage();
 * }
 * Endpoint endpoint = next.get();
 * tried.add(endpoint);
 * api.callStarted(endpoint);
 * return client.send(endpoint, request).whenComplete((response, error) ->
 *         api.callFinished(endpoint, error == null && response.status().code() < 500));
 * }</pre>
 *
 * Close the group to stop its health checks: {@code api.close()}.
 */
package io.parry.client.upstream;

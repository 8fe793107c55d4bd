package io.parry.benchmarks.gateway;

/**
 * A gateway configuration with many routes over 50 upstream groups, mixing the kinds a real file has:
 * a third prefix routes with a method condition, a rewrite, header rules and a retry policy; a third
 * template routes with a path template and a timeout; a third exact paths with a host condition and a
 * fixed response. {@code generation} changes every route's path, so each generation is a new table.
 */
final class LargeRouteFile {
    static final int UPSTREAMS = 50;

    private LargeRouteFile() {}

    static String yaml(int routes, int generation) {
        StringBuilder yaml = new StringBuilder(routes * 160);
        yaml.append("version: \"generation-").append(generation).append("\"\n");
        yaml.append("listener: { host: 127.0.0.1, port: 0 }\nadmin: { host: 127.0.0.1, port: 0 }\n");
        yaml.append("upstreams:\n");
        for (int u = 0; u < UPSTREAMS; u++) {
            yaml.append("  service-").append(u).append(":\n");
            yaml.append("    endpoints: [\"127.0.0.1:")
                    .append(20000 + u)
                    .append("\", \"127.0.0.2:")
                    .append(20000 + u)
                    .append("\"]\n");
            yaml.append("    breaker: { openDuration: 5s }\n");
        }
        yaml.append("routes:\n");
        for (int r = 0; r < routes; r++) {
            String service = "service-" + (r % UPSTREAMS);
            yaml.append("  - name: route-").append(r).append('\n');
            switch (r % 3) {
                case 0:
                    yaml.append("    match: { prefix: ")
                            .append(prefix(r, generation))
                            .append(", methods: [GET, POST] }\n");
                    yaml.append("    proxy:\n      upstream: ").append(service).append('\n');
                    yaml.append("      stripPrefix: /api\n");
                    yaml.append("      requestHeaders: { set: { X-Route: \"")
                            .append(r)
                            .append("\" } }\n");
                    yaml.append("      retry: { maxAttempts: 2 }\n");
                    break;
                case 1:
                    yaml.append("    match: { path: \"/users/{id}/items-")
                            .append(r)
                            .append('-')
                            .append(generation)
                            .append("\" }\n");
                    yaml.append("    proxy: { upstream: ")
                            .append(service)
                            .append(", pathTemplate: \"/items/{id}\", timeouts: { responseHeaders: 2s } }\n");
                    break;
                default:
                    yaml.append("    match: { path: ")
                            .append(exact(r, generation))
                            .append(", host: www.example.com }\n");
                    yaml.append("    respond: { status: 200, body: \"route ")
                            .append(r)
                            .append("\" }\n");
                    break;
            }
        }
        return yaml.toString();
    }

    static String prefix(int route, int generation) {
        return "/api/v" + route + "-" + generation;
    }

    static String exact(int route, int generation) {
        return "/static/" + route + "-" + generation;
    }
}

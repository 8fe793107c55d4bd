package io.parry.gateway.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.gateway.internal.config.ConfigLoader;
import io.parry.gateway.internal.config.GatewayConfig;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.testing.HandlerTester;
import io.parry.testing.TestResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The gateway's documented route examples (its README and routing tests) compiled onto the one
 * {@code Router}: which route takes each request now, and which took it before the gateway's own
 * route table was replaced by the server's router. Each route answers with its name; a miss shows
 * its status and {@code Allow}. Rows whose answer changed are marked {@code CHANGED} and say why.
 */
class RoutePrecedenceTest {
    private static final String CONFIG =
            """
            listener: { host: 127.0.0.1, port: 0 }
            admin: { host: 127.0.0.1, port: 0 }
            routes:
              - { name: todos, match: { prefix: /api/todos }, respond: { body: todos } }
              - { name: hello, match: { path: /hello }, respond: { body: hello } }
              - { name: api, match: { prefix: /api }, respond: { body: api } }
              - { name: api-v2, match: { prefix: /api/v2 }, respond: { body: api-v2 } }
              - { name: health, match: { path: "/api/{version}/health" }, respond: { body: health } }
              - { name: admin, match: { prefix: /api/admin, headers: { X-Admin: "1" } }, respond: { body: admin } }
              - { name: admin-put, match: { path: /api/admin/x, methods: [PUT] }, respond: { body: admin-put } }
              - { name: user, match: { path: "/users/{id}" }, respond: { body: user } }
              - { name: me, match: { path: /users/me }, respond: { body: me } }
              - { name: users, match: { prefix: /users }, respond: { body: users } }
              - { name: writes, match: { prefix: /orders, methods: [POST] }, respond: { body: writes } }
              - { name: reads, match: { prefix: /orders, methods: [GET] }, respond: { body: reads } }
              - { name: beta-site, match: { prefix: /site, host: beta.example }, respond: { body: beta-site } }
              - { name: canary, match: { prefix: /site, headers: { X-Canary: "1" } }, respond: { body: canary } }
              - { name: site, match: { prefix: /site }, respond: { body: site } }
              - { name: first, match: { prefix: /dup }, respond: { body: first } }
              - { name: second, match: { prefix: /dup }, respond: { body: second } }
              - { name: files, match: { path: "/files/{*path}" }, respond: { body: files } }
              - { name: file, match: { path: "/files/{name}" }, respond: { body: file } }
              - { name: raw, match: { path: "/files/{name}/raw" }, respond: { body: raw } }
              - { name: public, match: { prefix: /files/public }, respond: { body: public } }
              - { name: teapot, match: { path: /teapot }, respond: { status: 418, body: teapot } }
            """;

    private static HandlerTester gateway;

    @BeforeAll
    static void compileRoutes() {
        GatewayConfig config = ConfigLoader.parse(CONFIG, "gateway.yaml", Map.of());
        RouteCompiler.Result compiled = RouteCompiler.compile(config, Map.of(), new AuthResources());
        assertThat(compiled.errors()).isEmpty();
        gateway = HandlerTester.of(compiled.table());
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            # request (method path; field: value...)   | before                          | now
            GET /api/todos/1                            | todos                           | todos
            GET /hello                                  | hello                           | hello
            GET /hello/                                 | 404                             | 404
            GET /api/items                              | api                             | api
            GET /api/v2/items                           | api-v2                          | api-v2
            GET /api/v22                                | api                             | api
            GET /apix                                   | 404                             | 404
            GET /api/v3/health                          | health                          | health
            # CHANGED: a prefix on a literal segment now beats a template's parameter at that segment
            # (segment by segment, a literal wins); before, every template beat every prefix.
            GET /api/v2/health                          | health                          | api-v2
            GET /api/todos/health                       | health                          | todos
            GET /api/admin/x                            | api                             | api
            PUT /api/admin/x                            | admin-put                       | admin-put
            GET /api/admin/x; X-Admin: 1                | admin                           | admin
            GET /users/me                               | me                              | me
            GET /users/42                               | user                            | user
            GET /users/42/orders                        | users                           | users
            GET /users                                  | users                           | users
            GET /orders/1                               | reads                           | reads
            HEAD /orders/1                              | reads                           | reads
            POST /orders                                | writes                          | writes
            # CHANGED: Allow also names OPTIONS, which the router now answers itself (next row)
            DELETE /orders/1                            | 405 allow=GET, HEAD, POST       | 405 allow=GET, HEAD, POST, OPTIONS
            # CHANGED: an OPTIONS request no route takes gets 204 with Allow (RFC 9110, section 9.3.7)
            OPTIONS /orders/1                           | 405 allow=GET, HEAD, POST       | 204 allow=GET, HEAD, POST, OPTIONS
            GET /site/a; Host: Beta.Example:8080        | beta-site                       | beta-site
            GET /site/a; Host: beta.example.org         | site                            | site
            GET /site/a; X-Canary: 1                    | canary                          | canary
            GET /site/a; X-Canary: 2                    | site                            | site
            # CHANGED: a header condition reads the first field of its name, as RouteSpec.header does;
            # before, any field of the name with the value matched.
            GET /site/a; X-Canary: 2; X-Canary: 1       | canary                          | site
            GET /dup/x                                  | first                           | first
            GET /files/a                                | file                            | file
            GET /files/a/raw                            | raw                             | raw
            GET /files/a/b/c                            | files                           | files
            GET /files/                                 | files                           | files
            GET /files                                  | 404                             | 404
            # CHANGED: the longer prefix now beats a catch-all or a parameter on a shorter path
            GET /files/public                           | file                            | public
            GET /files/public/a/b                       | files                           | public
            GET /teapot                                 | teapot                          | teapot
            GET /nowhere                                | 404                             | 404
            """)
    void choosesTheRouteOfTheOneRouter(String request, String before, String now) {
        assertThat(answer(request)).isEqualTo(now);
    }

    /** The chosen route's name, or the status and {@code Allow} of the router's own answer. */
    private static String answer(String line) {
        String[] parts = line.split("; ");
        String[] target = parts[0].split(" ");
        HttpRequest.Builder request = HttpRequest.builder(HttpMethod.of(target[0]), target[1]);
        for (int i = 1; i < parts.length; i++) {
            int colon = parts[i].indexOf(':');
            request.header(
                    parts[i].substring(0, colon), parts[i].substring(colon + 1).trim());
        }
        TestResponse response = gateway.send(request.build());
        if (response.status() == 200 || response.status() == 418) {
            return response.bodyText();
        }
        String allow = response.header("allow");
        return response.status() + (allow == null ? "" : " allow=" + allow);
    }
}

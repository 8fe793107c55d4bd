package io.parry.annotations.processor.dialects;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.annotations.ControllerRoutes;
import io.parry.http.HttpBody;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.json.JsonCodec;
import io.parry.json.JsonEndpoints;
import io.parry.server.routing.Route;
import io.parry.server.routing.Router;
import io.parry.testing.HandlerTester;
import io.parry.testing.TestResponse;
import io.parry.validation.BeanValidator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A JAX-RS resource and a Spring Web controller, compiled against the real annotation jars and
 * served by Parry with neither JAX-RS nor Spring running: both behave the same.
 */
class DialectsTest {
    private static final Router ROUTER = router();
    private static final HandlerTester TESTER = HandlerTester.of(ROUTER);

    @AfterAll
    static void close() {
        TESTER.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/notes", "/spring/notes"})
    void servesTheControllersRoutesWithTheirMediaTypes(String root) {
        assertThat(ROUTER.routes()).map(Route::toString).anySatisfy(route -> assertThat(route)
                .startsWith("POST " + root + " consumes=application/json"));
        assertThat(ROUTER.routes()).map(Route::toString).anySatisfy(route -> assertThat(route)
                .startsWith("DELETE " + root + "/{id} "));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/notes", "/spring/notes"})
    void bindsBodiesHeadersQueryAndPathParametersAsTheirDialectSays(String root) {
        TestResponse added = post(root, "{\"text\":\"milk\"}", "ann");
        assertThat(added.status()).isEqualTo(200);
        assertThat(added.bodyText()).contains("\"text\":\"ann: milk\"");
        String id = added.bodyText().replaceAll(".*\"id\":(\\d+).*", "$1");

        assertThat(TESTER.get(root + "/" + id).bodyText()).contains("ann: milk");
        assertThat(TESTER.get(root + "?q=milk").bodyText()).contains("ann: milk");
        assertThat(TESTER.get(root + "?q=bread").bodyText()).isEqualTo("[]");
        assertThat(TESTER.get(root + "?limit=0").bodyText()).isEqualTo("[]");
        assertThat(TESTER.send(HttpRequest.of(HttpMethod.DELETE, root + "/" + id))
                        .status())
                .isEqualTo(204);
        assertThat(TESTER.get(root + "/" + id).status()).isEqualTo(404);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/notes", "/spring/notes"})
    void answers400ForAnInvalidBodyOrParameter(String root) {
        assertThat(post(root, "{\"text\":\" \"}", null).bodyText()).contains("\"field\":\"text\"");
        assertThat(TESTER.get(root + "?limit=many").bodyText()).contains("Query parameter 'limit' must be an integer.");
    }

    private static TestResponse post(String target, String json, String author) {
        HttpRequest.Builder request = HttpRequest.builder(HttpMethod.POST, target)
                .header("content-type", "application/json")
                .body(HttpBody.ofUtf8(json));
        if (author != null) {
            request.header("x-author", author);
        }
        return TESTER.send(request.build());
    }

    private static Router router() {
        JsonCodec codec = JsonCodec.ofDefault();
        JsonEndpoints json = JsonEndpoints.builder()
                .codec(codec)
                .validator(BeanValidator.create(codec))
                .build();
        Router.Builder builder = Router.builder();
        for (ControllerRoutes routes : List.of(
                new NoteResourceRoutes(new NoteResource(), json),
                new NoteControllerRoutes(new NoteController(), json))) {
            routes.addTo(builder);
        }
        return builder.build();
    }
}

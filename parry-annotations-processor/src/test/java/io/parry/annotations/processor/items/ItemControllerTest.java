package io.parry.annotations.processor.items;

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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The generated routes of {@link ItemController}, called through the router they were added to. */
class ItemControllerTest {
    private static final ExecutorService ITEMS_EXECUTOR =
            Executors.newSingleThreadExecutor(task -> new Thread(task, "items-executor"));
    private static final Router ROUTER = router();
    private static final HandlerTester TESTER = HandlerTester.of(ROUTER);

    @AfterAll
    static void close() {
        TESTER.close();
        ITEMS_EXECUTOR.shutdown();
    }

    @Test
    void addsEachAnnotatedMethodAsARouteOfTheRouter() {
        assertThat(ROUTER.routes())
                .map(Route::toString)
                .contains(
                        "GET /items on event-loop",
                        "GET /items/{id} on event-loop",
                        "POST /items on event-loop",
                        "PUT /items/{id} consumes=application/json produces=application/json on event-loop",
                        "GET /items/thread on worker",
                        "GET /items/executor on executor:items");
    }

    @Test
    void bindsABodyToARecordAndAnswersWithTheResultsStatusAndHeaders() {
        TestResponse created = post("/items", "{\"name\":\"hammer\",\"kind\":\"TOOL\"}");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.header("location")).startsWith("/items/");
        assertThat(created.bodyText()).contains("\"name\":\"hammer\"", "\"kind\":\"TOOL\"");
        assertThat(TESTER.get(created.header("location")).bodyText()).contains("hammer");
    }

    @Test
    void validatesTheBodyAgainstItsConstraints() {
        TestResponse invalid = post("/items", "{\"name\":\"\"}");

        assertThat(invalid.status()).isEqualTo(400);
        assertThat(invalid.bodyText()).contains("\"field\":\"name\"", "\"field\":\"kind\"");
    }

    @Test
    void answers404WhenAnOptionalIsEmpty() {
        assertThat(TESTER.get("/items/999999").status()).isEqualTo(404);
    }

    @Test
    void answers400NamingAPathParameterThatDoesNotConvert() {
        TestResponse response = TESTER.get("/items/abc");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.bodyText()).contains("Path parameter 'id' must be an integer.");
    }

    @Test
    void answers400NamingAMissingRequiredQueryParameterOrHeader() {
        assertThat(TESTER.get("/items/required").bodyText()).contains("Query parameter 'count' is required.");
        assertThat(TESTER.get("/items/required?count=2").bodyText()).contains("Header 'x-tenant' is required.");
        TestResponse both = TESTER.send(HttpRequest.builder(HttpMethod.GET, "/items/required?count=2")
                .header("x-tenant", "acme")
                .build());
        assertThat(both.bodyText()).isEqualTo("\"acme:2\"");
    }

    @Test
    void convertsQueryParametersToEnumsAndCookiesToUuidsAndNamesTheOneThatFails() {
        post("/items", "{\"name\":\"atlas\",\"kind\":\"BOOK\"}");

        assertThat(TESTER.get("/items?kind=BOOK&limit=5").bodyText())
                .contains("atlas")
                .doesNotContain("TOOL");
        assertThat(TESTER.get("/items?kind=CAR").bodyText())
                .contains("Query parameter 'kind' must be one of BOOK, TOOL.");
        assertThat(TESTER.get("/items?limit=x").bodyText()).contains("Query parameter 'limit' must be an integer.");
        TestResponse badCookie = TESTER.send(HttpRequest.builder(HttpMethod.GET, "/items")
                .header("cookie", "session=nope")
                .build());
        assertThat(badCookie.bodyText()).contains("Cookie 'session' must be a UUID.");
    }

    @Test
    void sendsAnHttpResponseAsItIsAndAnswers204ForVoid() {
        assertThat(TESTER.get("/items/raw").bodyText()).isEqualTo("raw");
        assertThat(TESTER.get("/items/status").status()).isEqualTo(202);
        assertThat(TESTER.send(HttpRequest.of(HttpMethod.DELETE, "/items/1")).status())
                .isEqualTo(204);
    }

    @Test
    void sendsTheHttpResponseAMethodBuildsFromAValidatedBody() {
        TestResponse later = post("/items/later", "{\"name\":\"nail\",\"kind\":\"TOOL\"}");
        TestResponse laterAt = send(HttpMethod.PUT, "/items/later/7", "{\"name\":\"nail\",\"kind\":\"TOOL\"}");

        assertThat(later.status()).isEqualTo(202);
        assertThat(later.header("x-kind")).isEqualTo("TOOL");
        assertThat(later.bodyText()).isEqualTo("nail");
        assertThat(laterAt.status()).isEqualTo(202);
        assertThat(laterAt.bodyText()).isEqualTo("7:nail");
        assertThat(post("/items/later", "{\"name\":\"\"}").status()).isEqualTo(400);
    }

    @Test
    void awaitsAStageOfAnOptional() {
        String location = post("/items", "{\"name\":\"saw\",\"kind\":\"TOOL\"}").header("location");

        TestResponse replaced = send(HttpMethod.PUT, location, "{\"name\":\"big saw\",\"kind\":\"TOOL\"}");

        assertThat(replaced.status()).isEqualTo(200);
        assertThat(replaced.bodyText()).contains("big saw");
        assertThat(send(HttpMethod.PUT, "/items/424242", "{\"name\":\"x\",\"kind\":\"TOOL\"}")
                        .status())
                .isEqualTo(404);
    }

    @Test
    void runsMethodsOnTheWorkersOrTheNamedExecutor() {
        assertThat(TESTER.get("/items/thread").bodyText()).contains("parry-test-worker-");
        assertThat(TESTER.get("/items/executor").bodyText()).isEqualTo("\"items-executor\"");
    }

    @Test
    void wrapsRoutesInTheControllersFiltersOutsideTheMethodsAndAsksTheMethodsErrorHandlersFirst() {
        assertThat(TESTER.get("/items/raw").header("x-filters")).isEqualTo("controller,method");
        assertThat(TESTER.get("/items/status").header("x-filters")).isEqualTo("controller");
        assertThat(TESTER.get("/items/teapot").status()).isEqualTo(418);
        assertThat(TESTER.get("/items/gone").status()).isEqualTo(410);
        assertThat(TESTER.get("/items/1/x").status()).isEqualTo(404);
    }

    @Test
    void putsTheFiltersGivenWithTheRoutesOutsideTheControllersOwnAndLeavesTheOriginalAsItWas() {
        ControllerRoutes routes = ItemControllerRoutes.of(new ItemController());
        ControllerRoutes wrapped = routes.with(new HeaderFilter("application")).with(new HeaderFilter("inner"));
        Router.Builder builder = Router.builder().executor("items", ITEMS_EXECUTOR);
        wrapped.addTo(builder);

        try (HandlerTester tester = HandlerTester.of(builder.build())) {
            assertThat(tester.get("/items/raw").header("x-filters")).isEqualTo("application,inner,controller,method");
        }
        assertThat(wrapped.filters()).hasSize(2);
        assertThat(routes.filters()).isEmpty();
    }

    private static TestResponse post(String target, String json) {
        return send(HttpMethod.POST, target, json);
    }

    private static TestResponse send(HttpMethod method, String target, String json) {
        return TESTER.send(HttpRequest.builder(method, target)
                .header("content-type", "application/json")
                .body(HttpBody.ofUtf8(json))
                .build());
    }

    private static Router router() {
        JsonCodec codec = JsonCodec.ofDefault();
        JsonEndpoints json = JsonEndpoints.builder()
                .codec(codec)
                .validator(BeanValidator.create(codec))
                .build();
        Router.Builder builder = Router.builder().executor("items", ITEMS_EXECUTOR);
        new ItemControllerRoutes(new ItemController(), json).addTo(builder);
        return builder.build();
    }
}

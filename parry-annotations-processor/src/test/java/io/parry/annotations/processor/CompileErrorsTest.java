package io.parry.annotations.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Mistakes in a controller are compile errors that name the element at fault. */
class CompileErrorsTest {

    @Test
    void refusesAParameterTypeItCannotConvert() throws Exception {
        InMemoryCompiler.Result result = compile(
                """
                @Controller
                class Shop {
                    @Get("/orders")
                    String orders(@QueryParam java.util.Date since) { return ""; }
                }
                """);

        assertThat(result.success()).isFalse();
        assertThat(result.errors())
                .singleElement()
                .asString()
                .startsWith("parameter since of Shop.orders(Date): unsupported type java.util.Date (expected: String,");
    }

    @Test
    void refusesAPathParameterThePatternDoesNotName() throws Exception {
        InMemoryCompiler.Result result = compile(
                """
                @Controller("/orders")
                class Shop {
                    @Get("/{id}")
                    String order(@PathParam long orderId) { return ""; }
                }
                """);

        assertThat(result.errors())
                .containsExactly("parameter orderId of Shop.order(long): missing path parameter 'orderId'"
                        + " (expected: one of [id] in /orders/{id})");
    }

    @Test
    void refusesAParameterWithNoBinding() throws Exception {
        InMemoryCompiler.Result result = compile(
                """
                @Controller
                class Shop {
                    @Get("/orders")
                    String orders(String filter) { return ""; }
                }
                """);

        assertThat(result.errors())
                .singleElement()
                .asString()
                .startsWith("parameter filter of Shop.orders(String): no binding");
    }

    @Test
    void refusesTwoMethodsOnOneRoute() throws Exception {
        InMemoryCompiler.Result result = compile(
                """
                @Controller("/orders")
                class Shop {
                    @Get("/{id}")
                    String order(@PathParam long id) { return ""; }

                    @Get("/{orderId}")
                    String sameOrder(@PathParam long orderId) { return ""; }
                }
                """);

        assertThat(result.errors())
                .containsExactly("Shop.sameOrder(long): route GET /orders/{orderId} is already declared by"
                        + " Shop.order(long) (expected: one method per route)");
    }

    @Test
    void refusesADefaultValueOfTheWrongType() throws Exception {
        InMemoryCompiler.Result result = compile(
                """
                @Controller
                class Shop {
                    @Get("/orders")
                    String orders(@QueryParam @Default("ten") int limit) { return ""; }
                }
                """);

        assertThat(result.errors())
                .containsExactly(
                        "parameter limit of Shop.orders(int): default value \"ten\" (expected: a value of type int)");
    }

    @Test
    void refusesAPrivateRouteMethodAndAGenericBody() throws Exception {
        InMemoryCompiler.Result result = compile(
                """
                @Controller
                class Shop {
                    @Get("/secret")
                    private String secret() { return ""; }

                    @Post("/orders")
                    String add(@Body java.util.List<String> lines) { return ""; }
                }
                """);

        assertThat(result.errors())
                .containsExactlyInAnyOrder(
                        "Shop.secret(): a route method cannot be private or static",
                        "parameter lines of Shop.add(List<java.lang.String>): unsupported body type"
                                + " java.util.List<java.lang.String> (expected: a class or record without type arguments)");
    }

    @Test
    void refusesAFilterItCannotMake() throws Exception {
        InMemoryCompiler.Result result = compile(
                """
                @Controller
                @Filters(Shop.Audit.class)
                class Shop {
                    @Get("/orders")
                    String orders() { return ""; }

                    static final class Audit implements io.parry.server.Filter {
                        Audit(String log) {}

                        public java.util.concurrent.CompletionStage<io.parry.http.HttpResponse> filter(
                                io.parry.server.Handler next, io.parry.server.RequestContext ctx,
                                io.parry.http.HttpRequest request) throws Exception {
                            return next.handle(ctx, request);
                        }
                    }
                }
                """);

        assertThat(result.errors())
                .containsExactly("Shop.orders(): shop.Shop.Audit (expected: a Filter class with a constructor without"
                        + " parameters that is not private)");
    }

    @Test
    void refusesABlankFilterName() throws Exception {
        InMemoryCompiler.Result result = compile(
                """
                @Controller
                class Shop {
                    @Get("/orders")
                    @Filters(named = " ")
                    String orders() { return ""; }
                }
                """);

        assertThat(result.errors())
                .containsExactly("Shop.orders(): filter name ' ' (expected: a name that is not blank)");
    }

    @Test
    void refusesAFilterNameThatIsNotAStringConstant() throws Exception {
        InMemoryCompiler.Result result = compile(
                """
                @Controller
                class Shop {
                    static String admin = "admin";

                    @Get("/orders")
                    @Filters(named = admin)
                    String orders() { return ""; }
                }
                """);

        assertThat(result.success()).isFalse();
        assertThat(result.errors()).singleElement().asString().contains("constant");
    }

    @Test
    void givesTheNamedFiltersOfAControllerAndItsMethodOutsideTheFiltersMadeFromAClass() throws Exception {
        InMemoryCompiler.Result result = compile(
                """
                @Controller
                @Filters(named = "tenant")
                class Shop {
                    @Get("/orders")
                    @Filters(value = Audit.class, named = "admin")
                    String orders() { return ""; }

                    static final class Audit implements io.parry.server.Filter {
                        public java.util.concurrent.CompletionStage<io.parry.http.HttpResponse> filter(
                                io.parry.server.Handler next, io.parry.server.RequestContext ctx,
                                io.parry.http.HttpRequest request) throws Exception {
                            return next.handle(ctx, request);
                        }
                    }
                }
                """);

        assertThat(result.errors()).isEmpty();
        assertThat(java.nio.file.Files.readString(result.generated().resolve("shop/ShopRoutes.java")))
                .contains(".filter(RouteFilters.named(named, \"tenant\", \"Shop.orders\"))"
                        + ".filter(RouteFilters.named(named, \"admin\", \"Shop.orders\")).filter(filter0)");
    }

    private static InMemoryCompiler.Result compile(String controller) throws Exception {
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put("shop.Shop", "package shop;\nimport io.parry.annotations.*;\n" + controller);
        return InMemoryCompiler.compile(sources);
    }
}

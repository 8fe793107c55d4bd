package io.parry.server.routing;

import io.parry.http.HttpMethod;
import io.parry.server.Handler;

/** A route as declared on a builder, before prefixes, filters and scheduling are bound. */
record RouteDeclaration(HttpMethod method, String pattern, Handler handler, RouteSpec spec) {}

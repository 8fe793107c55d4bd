package io.parry.annotations.processor;

import java.util.List;
import javax.lang.model.element.TypeElement;

/** A controller class and its routes. */
record ControllerModel(TypeElement type, String packageName, String routesName, List<RouteModel> routes) {}

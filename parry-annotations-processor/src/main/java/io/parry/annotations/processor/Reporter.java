package io.parry.annotations.processor;

import javax.annotation.processing.Messager;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import javax.tools.Diagnostic;

/** Reports mistakes as compile errors on the element at fault, naming it in the message too. */
final class Reporter {
    private final Messager messager;
    private int errors;

    Reporter(Messager messager) {
        this.messager = messager;
    }

    void error(Element element, String message) {
        errors++;
        messager.printMessage(Diagnostic.Kind.ERROR, describe(element) + ": " + message, element);
    }

    int errors() {
        return errors;
    }

    /** {@code TodoController.one(long)}, or {@code parameter id of TodoController.one(long)}. */
    static String describe(Element element) {
        if (element instanceof VariableElement parameter
                && parameter.getEnclosingElement() instanceof ExecutableElement method) {
            return "parameter " + parameter.getSimpleName() + " of " + describe(method);
        }
        if (element instanceof ExecutableElement method) {
            StringBuilder text = new StringBuilder()
                    .append(method.getEnclosingElement().getSimpleName())
                    .append('.')
                    .append(method.getSimpleName())
                    .append('(');
            for (VariableElement parameter : method.getParameters()) {
                text.append(text.charAt(text.length() - 1) == '(' ? "" : ", ").append(simple(parameter));
            }
            return text.append(')').toString();
        }
        return element.getSimpleName().toString();
    }

    private static String simple(VariableElement parameter) {
        String type = parameter.asType().toString();
        int generic = type.indexOf('<');
        String raw = generic < 0 ? type : type.substring(0, generic);
        return raw.substring(raw.lastIndexOf('.') + 1) + (generic < 0 ? "" : type.substring(generic));
    }
}

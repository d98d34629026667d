package org.lockspi.spring.internal;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.common.CompositeStringExpression;
import org.springframework.expression.common.TemplateParserContext;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/** Lock names of {@code @Locked} methods: text with {@code #{...}} SpEL over the arguments, parsed once. */
final class LockNames {
    /** What {@code #root} is in a name template. */
    public record Root(Method method, Object target, Object[] args) {
    }

    private final SpelExpressionParser parser = new SpelExpressionParser();
    private final TemplateParserContext template = new TemplateParserContext();
    private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();
    private final Map<String, Expression> parsed = new ConcurrentHashMap<>();

    String name(String text, Method method, Object[] args, Object target) {
        if (!text.contains("#{")) {
            return text;
        }
        Expression expression = parsed.computeIfAbsent(text, t -> parser.parseExpression(t, template));
        MethodBasedEvaluationContext context =
                new MethodBasedEvaluationContext(new Root(method, target, args), method, args, parameterNames);
        Expression[] parts = expression instanceof CompositeStringExpression composite
                ? composite.getExpressions() : new Expression[] {expression};
        StringBuilder built = new StringBuilder();
        for (Expression part : parts) {
            Object value = part.getValue(context);
            if (value == null) {
                throw new IllegalArgumentException("lock name '" + text + "' of " + method + ": '"
                        + part.getExpressionString() + "' is null" + (parameterNames.getParameterNames(method) == null
                        ? " (the parameter names are not in the class file: compile with -parameters, or use #p0)"
                        : ""));
            }
            built.append(value);
        }
        String name = built.toString();
        if (name.isEmpty()) {
            throw new IllegalArgumentException("lock name '" + text + "' of " + method + " evaluated to an empty name");
        }
        return name;
    }
}

package io.basaltdb.sql.prepare;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import java.io.StringReader;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.config.CalciteSystemProperty;
import org.apache.calcite.linq4j.tree.ClassDeclaration;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.FieldDeclaration;
import org.apache.calcite.linq4j.tree.VisitorImpl;
import org.apache.calcite.runtime.ArrayBindable;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.runtime.Typed;
import org.codehaus.commons.compiler.util.reflect.ByteArrayClassLoader;
import org.codehaus.janino.ClassLoaderIClassLoader;
import org.codehaus.janino.Java;
import org.codehaus.janino.Parser;
import org.codehaus.janino.Scanner;
import org.codehaus.janino.UnitCompiler;
import org.codehaus.janino.util.ClassFile;

/**
 * A plan's generated Java code, compiled as Calcite's {@code EnumerableInterpretable} compiles
 * it (the same class text, the same cache of compiled plans by their code, the same hook), with
 * one difference: Janino's model of the classes the code calls (Calcite's runtime, linq4j,
 * Basalt's, the JDK's) is kept from one compilation to the next. Calcite's compiler makes a new
 * one per plan and so reflects again over every class the code names, its methods and its
 * supertypes, and throws a {@code ClassNotFoundException} for each package it tries a simple
 * name in: two thirds of a compilation (10 ms a plan in {@code bench unseen}).
 *
 * <p>The models are Janino's {@link ClassLoaderIClassLoader}s over this class's loader, which
 * loads nothing new: what they hold stays true. One compiles at a time (Janino's models are not
 * thread-safe), so a few are pooled for concurrent compilations. Each plan's classes are defined
 * in their own loader, as Calcite does, so a plan let go of by the cache can be unloaded.
 */
final class GeneratedCode {
  private GeneratedCode() {}

  private static final ClassLoader LOADER = GeneratedCode.class.getClassLoader();
  /** Models kept for reuse; more are made when compilations run concurrently. */
  private static final int POOLED = 4;
  private static final ConcurrentLinkedDeque<ClassLoaderIClassLoader> MODELS =
      new ConcurrentLinkedDeque<>();
  /** Compiled plans by their code: Calcite's own cache's size property, Calcite's default. */
  private static final Cache<String, Bindable<?>> COMPILED = CacheBuilder.newBuilder()
      .maximumSize(CalciteSystemProperty.BINDABLE_CACHE_MAX_SIZE.value())
      .concurrencyLevel(CalciteSystemProperty.BINDABLE_CACHE_CONCURRENCY_LEVEL.value())
      .build();
  /**
   * The plan's code, generated and compiled (or found compiled), ready to bind; {@code
   * compiling} runs when it is compiled (not found in the cache).
   */
  static Bindable<?> toBindable(Map<String, Object> parameters, EnumerableRel rel,
      EnumerableRel.Prefer prefer, Runnable compiling) {
    ClassDeclaration declaration =
        new EnumerableRelImplementor(rel.getCluster().getRexBuilder(), parameters)
            .implementRoot(rel, prefer);
    String body = Expressions.toString(declaration.memberDeclarations, "\n", false);
    Hook.JAVA_PLAN.run(body);
    String text = "public final class " + declaration.name + " implements "
        + (rel.getRowType().getFieldCount() == 1
            ? Bindable.class.getCanonicalName() + ", " + Typed.class.getCanonicalName()
            : ArrayBindable.class.getCanonicalName())
        + " {\n" + body + "\n}";
    try {
      // a class with static fields holds state of its own: compiled for this plan alone
      if (CalciteSystemProperty.BINDABLE_CACHE_MAX_SIZE.value() == 0
          || hasStaticField(declaration)) {
        compiling.run();
        return compile(declaration.name, text);
      }
      return COMPILED.get(body, () -> {
        compiling.run();
        return compile(declaration.name, text);
      });
    } catch (ExecutionException | RuntimeException | ReflectiveOperationException
        | org.codehaus.commons.compiler.CompileException | java.io.IOException e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null
          ? e.getCause() : e;
      throw new IllegalStateException("Error while compiling generated Java code:\n" + body,
          cause);
    }
  }

  private static Bindable<?> compile(String className, String text)
      throws org.codehaus.commons.compiler.CompileException, java.io.IOException,
      ReflectiveOperationException {
    Java.AbstractCompilationUnit unit =
        new Parser(new Scanner(null, new StringReader(text))).parseAbstractCompilationUnit();
    List<ClassFile> classFiles = new ArrayList<>();
    ClassLoaderIClassLoader model = MODELS.pollFirst();
    if (model == null) {
      model = new ClassLoaderIClassLoader(LOADER);
    }
    try {
      new UnitCompiler(unit, model).compileUnit(false, false, false, classFiles);
    } finally {
      if (MODELS.size() < POOLED) {
        MODELS.offerFirst(model);
      }
    }
    Map<String, byte[]> classes = new HashMap<>();
    for (ClassFile f : classFiles) {
      classes.put(f.getThisClassName(), f.toByteArray());
    }
    return (Bindable<?>) new ByteArrayClassLoader(classes, LOADER).loadClass(className)
        .getDeclaredConstructors()[0].newInstance();
  }

  private static boolean hasStaticField(ClassDeclaration declaration) {
    boolean[] found = {false};
    declaration.accept(new VisitorImpl<Void>() {
      @Override
      public Void visit(FieldDeclaration field) {
        found[0] |= Modifier.isStatic(field.modifier);
        return super.visit(field);
      }
    });
    return found[0];
  }
}

package org.arbiter.kit.test;

import com.sun.source.tree.AnnotatedTypeTree;
import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.ArrayTypeTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.PrimitiveTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeParameterTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WildcardTree;
import com.sun.source.util.JavacTask;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compares our stand-ins of VASSAL classes (clients/java/vassal-standins) with VASSAL's own
 * sources, parsed (not compiled) with the JDK's compiler API, so that no VASSAL dependency is
 * needed. For every type and every non-private member a stand-in declares: the same kind,
 * modifiers, type parameters, supertypes (a subset of VASSAL's), parameter types, return type,
 * checked exceptions, constant values, and no @Deprecated in VASSAL. For every VASSAL class or
 * interface the adapter extends or implements, and every abstract stand-in class: the same
 * set of abstract methods left for a concrete subclass to implement, walking the whole real
 * hierarchy (JDK supertypes by reflection), so that an adapter that compiles against the
 * stand-ins implements everything VASSAL requires.
 * Usage: StandInCheck STANDINS_DIR ADAPTER_DIR VASSAL_SOURCE_ROOT… (e.g. vassal/vassal-app/src/main/java)
 */
public final class StandInCheck {
    private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    private final StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8);
    private final Map<Path, CompilationUnitTree> parsed = new HashMap<>();
    /** The VASSAL types the adapter's classes extend or implement. */
    private final Set<String> extendedByAdapter = new TreeSet<>();

    public static void main(String[] args) throws Exception {
        Path standIns = Path.of(args[0]);
        StandInCheck check = new StandInCheck();
        T.section("the VASSAL types the adapter extends or implements", () -> check.adapterSupertypes(Path.of(args[1]), standIns));
        for (int i = 2; i < args.length; i++) {
            Path root = Path.of(args[i]);
            T.section("stand-ins against " + root, () -> check.compareAll(standIns, root));
        }
        System.exit(T.finish());
    }

    void adapterSupertypes(Path adapter, Path standIns) throws IOException {
        List<Path> sources;
        try (Stream<Path> walk = Files.walk(adapter)) {
            sources = walk.filter(p -> p.toString().endsWith(".java")).sorted().collect(Collectors.toList());
        }
        for (Path source : sources) {
            Unit u = unit(source, standIns);
            for (Tree t : u.cu.getTypeDecls()) {
                if (!(t instanceof ClassTree)) continue;
                ClassTree c = (ClassTree) t;
                List<Tree> supers = new ArrayList<>(c.getImplementsClause());
                if (c.getExtendsClause() != null) supers.add(c.getExtendsClause());
                for (Tree s : supers) {
                    String q = erase(u.type(s, Set.of()), Set.of());
                    if (q.startsWith("VASSAL.")) extendedByAdapter.add(q);
                }
            }
        }
        T.check(!extendedByAdapter.isEmpty(), "the adapter extends or implements VASSAL types: " + extendedByAdapter);
        for (String q : extendedByAdapter) T.check(Files.exists(standIns.resolve(q.replace('.', '/') + ".java")), q + " has a stand-in");
    }

    void compareAll(Path standIns, Path root) throws IOException {
        List<Path> sources;
        try (Stream<Path> walk = Files.walk(standIns)) {
            sources = walk.filter(p -> p.toString().endsWith(".java")).sorted().collect(Collectors.toList());
        }
        T.check(!sources.isEmpty(), "stand-ins found in " + standIns);
        for (Path source : sources) {
            Path rel = standIns.relativize(source);
            Path real = root.resolve(rel);
            if (!T.check(Files.exists(real), rel + ": VASSAL has this file")) continue;
            Unit mine = unit(source, standIns), theirs = unit(real, root);
            for (Tree t : mine.cu.getTypeDecls()) {
                if (!(t instanceof ClassTree)) continue;
                ClassTree myType = (ClassTree) t;
                ClassTree realType = findType(theirs.cu, myType.getSimpleName().toString());
                if (!T.check(realType != null, rel + ": VASSAL declares " + myType.getSimpleName())) continue;
                compareType(mine, myType, theirs, realType);
            }
        }
    }

    /** A parsed file and where its names are looked up. */
    final class Unit {
        final CompilationUnitTree cu;
        final Path root;
        final String pkg;

        Unit(CompilationUnitTree cu, Path root) {
            this.cu = cu;
            this.root = root;
            this.pkg = cu.getPackageName() == null ? "" : cu.getPackageName().toString();
        }

        /** The qualified name of a type written {@code name} in this file (a simple name, or Outer.Inner, or qualified). */
        String qualify(String name, Set<String> typeVariables) {
            if (typeVariables.contains(name)) return name;
            String first = name.contains(".") ? name.substring(0, name.indexOf('.')) : name;
            String rest = name.contains(".") ? name.substring(name.indexOf('.')) : "";
            for (ImportTree i : cu.getImports()) {
                String imported = i.getQualifiedIdentifier().toString();
                if (!i.isStatic() && imported.endsWith("." + first)) return imported + rest;
            }
            if (Files.exists(root.resolve(pkg.replace('.', '/')).resolve(first + ".java"))) return pkg + "." + name;
            for (Tree t : cu.getTypeDecls()) {
                if (t instanceof ClassTree && findNested((ClassTree) t, first) != null) return pkg + "." + ((ClassTree) t).getSimpleName() + "." + name;
            }
            if (jdkClass("java.lang." + first) != null) return "java.lang." + name;
            for (ImportTree i : cu.getImports()) {
                String imported = i.getQualifiedIdentifier().toString();
                if (i.isStatic() || !imported.endsWith(".*")) continue;
                String p = imported.substring(0, imported.length() - 2);
                if (Files.exists(root.resolve(p.replace('.', '/')).resolve(first + ".java")) || jdkClass(p + "." + first) != null) return p + "." + name;
            }
            return name; // already qualified, or unknown: compared as written
        }

        String type(Tree t, Set<String> vars) {
            if (t == null) return "void";
            if (t instanceof PrimitiveTypeTree) return t.toString();
            if (t instanceof ArrayTypeTree) return type(((ArrayTypeTree) t).getType(), vars) + "[]";
            if (t instanceof AnnotatedTypeTree) return type(((AnnotatedTypeTree) t).getUnderlyingType(), vars);
            if (t instanceof ParameterizedTypeTree) {
                ParameterizedTypeTree p = (ParameterizedTypeTree) t;
                return type(p.getType(), vars) + "<" + p.getTypeArguments().stream().map(a -> type(a, vars)).collect(Collectors.joining(",")) + ">";
            }
            if (t instanceof WildcardTree) {
                WildcardTree w = (WildcardTree) t;
                String kind = w.getKind() == Tree.Kind.EXTENDS_WILDCARD ? "? extends " : w.getKind() == Tree.Kind.SUPER_WILDCARD ? "? super " : "?";
                return w.getBound() == null ? kind : kind + type(w.getBound(), vars);
            }
            if (t instanceof IdentifierTree || t instanceof MemberSelectTree) return qualify(t.toString(), vars);
            return t.toString();
        }
    }

    Unit unit(Path file, Path root) throws IOException {
        CompilationUnitTree cu = parsed.get(file);
        if (cu == null) {
            JavacTask task = (JavacTask) javac.getTask(null, files, null, List.of("-proc:none"), null, files.getJavaFileObjects(file));
            cu = task.parse().iterator().next();
            parsed.put(file, cu);
        }
        return new Unit(cu, root);
    }

    static ClassTree findType(CompilationUnitTree cu, String name) {
        for (Tree t : cu.getTypeDecls()) if (t instanceof ClassTree && ((ClassTree) t).getSimpleName().contentEquals(name)) return (ClassTree) t;
        return null;
    }

    static ClassTree findNested(ClassTree outer, String name) {
        for (Tree m : outer.getMembers()) if (m instanceof ClassTree && ((ClassTree) m).getSimpleName().contentEquals(name)) return (ClassTree) m;
        return null;
    }

    static Class<?> jdkClass(String name) {
        try {
            return Class.forName(name, false, ClassLoader.getSystemClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    static Set<String> typeVariables(List<? extends TypeParameterTree> params, Set<String> outer) {
        Set<String> out = new TreeSet<>(outer);
        for (TypeParameterTree p : params) out.add(p.getName().toString());
        return out;
    }

    static boolean isInterface(ClassTree c) {
        return c.getKind() == Tree.Kind.INTERFACE || c.getKind() == Tree.Kind.ANNOTATION_TYPE;
    }

    /** Declared modifiers plus those an interface member has implicitly; only those that change what a caller or subclass may do. */
    static Set<String> modifiers(ModifiersTree m, ClassTree owner, Tree member) {
        Set<String> out = new TreeSet<>();
        for (javax.lang.model.element.Modifier x : m.getFlags()) {
            switch (x) {
                case PUBLIC: case PROTECTED: case PRIVATE: case STATIC: case ABSTRACT: case FINAL: case DEFAULT:
                    out.add(x.toString());
                    break;
                default:
                    break;
            }
        }
        if (owner != null && isInterface(owner)) {
            if (!out.contains("private")) out.add("public");
            if (member instanceof MethodTree && ((MethodTree) member).getBody() == null && !out.contains("static")) out.add("abstract");
            if (member instanceof VariableTree) {
                out.add("static");
                out.add("final");
            }
        }
        return out;
    }

    static boolean deprecated(ModifiersTree m) {
        for (AnnotationTree a : m.getAnnotations()) if (a.getAnnotationType().toString().endsWith("Deprecated")) return true;
        return false;
    }

    String typeParams(Unit u, List<? extends TypeParameterTree> params, Set<String> vars) {
        return params.stream().map(p -> p.getName() + (p.getBounds().isEmpty() ? "" : " extends " + p.getBounds().stream().map(b -> u.type(b, vars)).collect(Collectors.joining("&")))).collect(Collectors.joining(","));
    }

    String signature(Unit u, MethodTree m, Set<String> classVars) {
        Set<String> vars = typeVariables(m.getTypeParameters(), classVars);
        return m.getName() + "(" + m.getParameters().stream().map(p -> u.type(p.getType(), vars)).collect(Collectors.joining(",")) + ")";
    }

    void compareType(Unit mine, ClassTree myType, Unit theirs, ClassTree realType) {
        String name = mine.pkg + "." + myType.getSimpleName();
        Set<String> myVars = typeVariables(myType.getTypeParameters(), Set.of());
        Set<String> realVars = typeVariables(realType.getTypeParameters(), Set.of());
        T.equal(myType.getKind(), realType.getKind(), name + ": kind");
        T.equal(modifiers(myType.getModifiers(), null, myType), modifiers(realType.getModifiers(), null, realType), name + ": modifiers");
        T.equal(typeParams(mine, myType.getTypeParameters(), myVars), typeParams(theirs, realType.getTypeParameters(), realVars), name + ": type parameters");
        T.check(!deprecated(realType.getModifiers()), name + ": not deprecated in VASSAL");
        List<String> realSupers = new ArrayList<>();
        if (realType.getExtendsClause() != null) realSupers.add(theirs.type(realType.getExtendsClause(), realVars));
        for (Tree t : realType.getImplementsClause()) realSupers.add(theirs.type(t, realVars));
        List<String> mySupers = new ArrayList<>();
        if (myType.getExtendsClause() != null) mySupers.add(mine.type(myType.getExtendsClause(), myVars));
        for (Tree t : myType.getImplementsClause()) mySupers.add(mine.type(t, myVars));
        for (String s : mySupers) T.check(realSupers.contains(s), name + ": VASSAL's declaration also extends or implements " + s + " (VASSAL: " + realSupers + ")");
        if (myType.getExtendsClause() != null) T.check(realType.getExtendsClause() != null && theirs.type(realType.getExtendsClause(), realVars).equals(mine.type(myType.getExtendsClause(), myVars)), name + ": the same superclass");

        for (Tree member : myType.getMembers()) {
            if (member instanceof MethodTree) {
                MethodTree m = (MethodTree) member;
                if (m.getModifiers().getFlags().contains(javax.lang.model.element.Modifier.PRIVATE)) continue;
                boolean constructor = m.getName().contentEquals("<init>");
                if (constructor && m.getParameters().isEmpty() && m.getBody() != null && m.getBody().getStatements().size() <= 1 && isImplicit(m)) continue;
                String sig = signature(mine, m, myVars);
                MethodTree real = null;
                for (Tree r : realType.getMembers()) if (r instanceof MethodTree && signature(theirs, (MethodTree) r, realVars).equals(sig)) real = (MethodTree) r;
                String what = name + "." + (constructor ? myType.getSimpleName() + sig.substring(6) : sig);
                if (!T.check(real != null, what + ": declared by VASSAL with these parameter types")) continue;
                Set<String> mv = typeVariables(m.getTypeParameters(), myVars), rv = typeVariables(real.getTypeParameters(), realVars);
                if (!constructor) T.equal(mine.type(m.getReturnType(), mv), theirs.type(real.getReturnType(), rv), what + ": return type");
                T.equal(modifiers(m.getModifiers(), myType, m), modifiers(real.getModifiers(), realType, real), what + ": modifiers");
                T.equal(typeParams(mine, m.getTypeParameters(), mv), typeParams(theirs, real.getTypeParameters(), rv), what + ": type parameters");
                Set<String> myThrows = new TreeSet<>(), realThrows = new TreeSet<>();
                for (Tree t : m.getThrows()) myThrows.add(mine.type(t, mv));
                for (Tree t : real.getThrows()) realThrows.add(theirs.type(t, rv));
                T.equal(myThrows, realThrows, what + ": throws");
                T.check(!deprecated(real.getModifiers()), what + ": not deprecated in VASSAL");
            } else if (member instanceof VariableTree) {
                VariableTree f = (VariableTree) member;
                if (f.getModifiers().getFlags().contains(javax.lang.model.element.Modifier.PRIVATE)) continue;
                VariableTree real = null;
                for (Tree r : realType.getMembers()) if (r instanceof VariableTree && ((VariableTree) r).getName().contentEquals(f.getName())) real = (VariableTree) r;
                String what = name + "." + f.getName();
                if (!T.check(real != null, what + ": declared by VASSAL")) continue;
                T.equal(mine.type(f.getType(), myVars), theirs.type(real.getType(), realVars), what + ": type");
                T.equal(modifiers(f.getModifiers(), myType, f), modifiers(real.getModifiers(), realType, real), what + ": modifiers");
                if (f.getInitializer() instanceof LiteralTree) T.equal(String.valueOf(((LiteralTree) f.getInitializer()).getValue()), real.getInitializer() instanceof LiteralTree ? String.valueOf(((LiteralTree) real.getInitializer()).getValue()) : String.valueOf(real.getInitializer()), what + ": value");
            } else if (member instanceof ClassTree) {
                ClassTree nested = findNested(realType, ((ClassTree) member).getSimpleName().toString());
                if (T.check(nested != null, name + "." + ((ClassTree) member).getSimpleName() + ": declared by VASSAL")) compareType(mine, (ClassTree) member, theirs, nested);
            }
        }
        boolean abstractClass = !isInterface(myType) && myType.getModifiers().getFlags().contains(javax.lang.model.element.Modifier.ABSTRACT);
        if (abstractClass || extendedByAdapter.contains(name)) {
            Set<String> mineOpen = obligations(mine, myType), realOpen = obligations(theirs, realType);
            T.equal(mineOpen, realOpen, name + ": the abstract methods a concrete subclass must implement");
        }
    }

    static boolean isImplicit(MethodTree m) {
        return m.getBody().getStatements().isEmpty() || m.getBody().getStatements().get(0).toString().startsWith("super()");
    }

    /** The methods left abstract in a type, walking its whole hierarchy: name(erased qualified parameter types). */
    Set<String> obligations(Unit u, ClassTree type) {
        Set<String> abstracts = new TreeSet<>(), concretes = new TreeSet<>();
        collect(u, type, abstracts, concretes, new TreeSet<>());
        abstracts.removeAll(concretes);
        return abstracts;
    }

    void collect(Unit u, ClassTree type, Set<String> abstracts, Set<String> concretes, Set<String> seen) {
        String self = u.pkg + "." + type.getSimpleName();
        if (!seen.add(self)) return;
        Set<String> vars = typeVariables(type.getTypeParameters(), Set.of());
        for (Tree member : type.getMembers()) {
            if (!(member instanceof MethodTree)) continue;
            MethodTree m = (MethodTree) member;
            if (m.getName().contentEquals("<init>")) continue;
            Set<String> flags = modifiers(m.getModifiers(), type, m);
            if (flags.contains("static") || flags.contains("private")) continue;
            Set<String> mv = typeVariables(m.getTypeParameters(), vars);
            String key = m.getName() + "(" + m.getParameters().stream().map(p -> erase(u.type(p.getType(), mv), mv)).collect(Collectors.joining(",")) + ")";
            if (flags.contains("abstract")) abstracts.add(key);
            else concretes.add(key);
        }
        List<Tree> supers = new ArrayList<>();
        if (type.getExtendsClause() != null) supers.add(type.getExtendsClause());
        supers.addAll(type.getImplementsClause());
        for (Tree s : supers) {
            String qualified = erase(u.type(s, vars), vars);
            Path file = u.root.resolve(qualified.replace('.', '/') + ".java");
            if (Files.exists(file)) {
                try {
                    Unit next = unit(file, u.root);
                    ClassTree t = findType(next.cu, qualified.substring(qualified.lastIndexOf('.') + 1));
                    if (t != null) {
                        collect(next, t, abstracts, concretes, seen);
                        continue;
                    }
                } catch (IOException e) {
                    // reported below
                }
            }
            Class<?> jdk = jdkClass(qualified);
            if (!T.check(jdk != null, self + ": supertype " + qualified + " found (VASSAL source or JDK)")) continue;
            collectJdk(jdk, abstracts, concretes, seen);
        }
    }

    static void collectJdk(Class<?> c, Set<String> abstracts, Set<String> concretes, Set<String> seen) {
        if (c == null || !seen.add(c.getName())) return;
        for (Method m : c.getDeclaredMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || Modifier.isPrivate(m.getModifiers()) || m.isSynthetic()) continue;
            String key = m.getName() + "(" + Stream.of(m.getParameterTypes()).map(p -> p.getCanonicalName()).collect(Collectors.joining(",")) + ")";
            if (Modifier.isAbstract(m.getModifiers())) abstracts.add(key);
            else concretes.add(key);
        }
        collectJdk(c.getSuperclass(), abstracts, concretes, seen);
        for (Class<?> i : c.getInterfaces()) collectJdk(i, abstracts, concretes, seen);
    }

    /** Erasure of a qualified type text: type arguments dropped, type variables as Object. */
    static String erase(String type, Set<String> vars) {
        StringBuilder out = new StringBuilder();
        int depth = 0;
        for (char ch : type.toCharArray()) {
            if (ch == '<') depth++;
            else if (ch == '>') depth--;
            else if (depth == 0) out.append(ch);
        }
        String base = out.toString();
        String element = base.replace("[]", "");
        return vars.contains(element) ? "java.lang.Object" + base.substring(element.length()) : base;
    }
}

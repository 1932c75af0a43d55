package dev.sluice.agent.install;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * One entry method with the advice around its body, as if written
 *
 * <pre>
 * boolean rejected;
 * try { rejected = Gatekeeper.enter(request, response, "doFilter"); }
 * catch (Throwable t) { rejected = false; }
 * if (rejected) { exit(); return; }
 * try { BODY, with exit() before each return } catch (Throwable t) { exit(); throw t; }
 * // exit(): try { Gatekeeper.exit(); } catch (Throwable ignored) {}
 * </pre>
 *
 * <p>The body's instructions stay as they are (a call is added before each {@code return}), so its
 * own stack map frames stay valid; the blocks added after it carry frames of their own that name
 * no local of the body, so they hold whatever the body's locals are. The catch of the whole body
 * is the last entry of the exception table: the body's own handlers come first, as before.
 */
final class ServletEntryMethod extends MethodVisitor {
  private static final String GATEKEEPER = "dev/sluice/agent/bootstrap/Gatekeeper";
  private static final String THROWABLE = "java/lang/Throwable";
  private static final Object[] NO_LOCALS = {};

  private final String name;
  private final Object[] entryLocals;
  private final boolean frames;
  private final Label enterStart = new Label();
  private final Label enterEnd = new Label();
  private final Label body = new Label();
  private final Label rejected = new Label();

  /** Start and end of each exit call before a {@code return} of the body. */
  private final List<Label> exitsOnReturn = new ArrayList<Label>();

  /** True until the body's first instruction: the frame the enter's catch jumps to goes there. */
  private boolean bodyFramePending;

  ServletEntryMethod(MethodVisitor method, String name, Object[] entryLocals, boolean frames) {
    super(Opcodes.ASM9, method);
    this.name = name;
    this.entryLocals = entryLocals;
    this.frames = frames;
  }

  @Override
  public void visitCode() {
    super.visitCode();
    int request = entryLocals.length - 2;
    super.visitLabel(enterStart);
    super.visitVarInsn(Opcodes.ALOAD, request);
    super.visitVarInsn(Opcodes.ALOAD, request + 1);
    super.visitLdcInsn(name);
    super.visitMethodInsn(
        Opcodes.INVOKESTATIC,
        GATEKEEPER,
        "enter",
        "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/String;)Z",
        false);
    super.visitLabel(enterEnd);
    super.visitJumpInsn(Opcodes.IFNE, rejected);
    super.visitLabel(body);
    bodyFramePending = frames;
  }

  @Override
  public void visitFrame(int type, int locals, Object[] local, int stack, Object[] onStack) {
    // A frame of the body's before its first instruction is the entry's, or wider: it serves.
    bodyFramePending = false;
    super.visitFrame(type, locals, local, stack, onStack);
  }

  /** Before each instruction of the body: the first gets the entry's frame, unless it has one. */
  private void instruction() {
    if (bodyFramePending) {
      bodyFramePending = false;
      frame(entryLocals);
    }
  }

  @Override
  public void visitInsn(int opcode) {
    instruction();
    if (opcode == Opcodes.RETURN) {
      Label start = new Label();
      Label end = new Label();
      super.visitLabel(start);
      callExit();
      super.visitLabel(end);
      exitsOnReturn.add(start);
      exitsOnReturn.add(end);
    }
    super.visitInsn(opcode);
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    Label bodyEnd = new Label();
    Label enterFailed = new Label();
    Label exitFailed = new Label();
    Label rejectedExit = new Label();
    Label rejectedExitEnd = new Label();
    Label thrown = new Label();
    Label thrownExit = new Label();
    Label thrownExitEnd = new Label();
    Label thrownExitFailed = new Label();
    super.visitLabel(bodyEnd);

    // Enter threw: the request proceeds, as if let through.
    super.visitLabel(enterFailed);
    frame(entryLocals, THROWABLE);
    super.visitInsn(Opcodes.POP);
    super.visitJumpInsn(Opcodes.GOTO, body);

    // Rejected: a 429 was written; the body is skipped.
    super.visitLabel(rejected);
    frame(NO_LOCALS);
    super.visitLabel(rejectedExit);
    callExit();
    super.visitLabel(rejectedExitEnd);
    super.visitInsn(Opcodes.RETURN);

    // Exit threw before a return: returns all the same.
    super.visitLabel(exitFailed);
    frame(NO_LOCALS, THROWABLE);
    super.visitInsn(Opcodes.POP);
    super.visitInsn(Opcodes.RETURN);

    // The body threw: exit, and throw it on, in a local of its own past the body's.
    super.visitLabel(thrown);
    frame(NO_LOCALS, THROWABLE);
    super.visitVarInsn(Opcodes.ASTORE, maxLocals);
    super.visitLabel(thrownExit);
    callExit();
    super.visitLabel(thrownExitEnd);
    super.visitVarInsn(Opcodes.ALOAD, maxLocals);
    super.visitInsn(Opcodes.ATHROW);

    Object[] withThrown = new Object[maxLocals + 1];
    Arrays.fill(withThrown, Opcodes.TOP);
    withThrown[maxLocals] = THROWABLE;
    super.visitLabel(thrownExitFailed);
    frame(withThrown, THROWABLE);
    super.visitInsn(Opcodes.POP);
    super.visitVarInsn(Opcodes.ALOAD, maxLocals);
    super.visitInsn(Opcodes.ATHROW);

    super.visitTryCatchBlock(enterStart, enterEnd, enterFailed, THROWABLE);
    super.visitTryCatchBlock(rejectedExit, rejectedExitEnd, exitFailed, THROWABLE);
    for (int i = 0; i < exitsOnReturn.size(); i += 2) {
      super.visitTryCatchBlock(exitsOnReturn.get(i), exitsOnReturn.get(i + 1), exitFailed, THROWABLE);
    }
    super.visitTryCatchBlock(body, bodyEnd, thrown, null);
    super.visitTryCatchBlock(thrownExit, thrownExitEnd, thrownExitFailed, THROWABLE);
    super.visitMaxs(Math.max(maxStack, 3), maxLocals + 1);
  }

  private void callExit() {
    super.visitMethodInsn(Opcodes.INVOKESTATIC, GATEKEEPER, "exit", "()V", false);
  }

  /** A full frame here (class files before Java 6 have none): {@code locals}, and the stack. */
  private void frame(Object[] locals, Object... stack) {
    if (frames) {
      super.visitFrame(Opcodes.F_NEW, locals.length, locals, stack.length, stack);
    }
  }

  @Override
  public void visitIntInsn(int opcode, int operand) {
    instruction();
    super.visitIntInsn(opcode, operand);
  }

  @Override
  public void visitVarInsn(int opcode, int var) {
    instruction();
    super.visitVarInsn(opcode, var);
  }

  @Override
  public void visitTypeInsn(int opcode, String type) {
    instruction();
    super.visitTypeInsn(opcode, type);
  }

  @Override
  public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
    instruction();
    super.visitFieldInsn(opcode, owner, name, descriptor);
  }

  @Override
  public void visitMethodInsn(
      int opcode, String owner, String name, String descriptor, boolean isInterface) {
    instruction();
    super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
  }

  @Override
  public void visitInvokeDynamicInsn(
      String name, String descriptor, Handle bootstrap, Object... arguments) {
    instruction();
    super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
  }

  @Override
  public void visitJumpInsn(int opcode, Label label) {
    instruction();
    super.visitJumpInsn(opcode, label);
  }

  @Override
  public void visitLdcInsn(Object value) {
    instruction();
    super.visitLdcInsn(value);
  }

  @Override
  public void visitIincInsn(int var, int increment) {
    instruction();
    super.visitIincInsn(var, increment);
  }

  @Override
  public void visitTableSwitchInsn(int min, int max, Label otherwise, Label... labels) {
    instruction();
    super.visitTableSwitchInsn(min, max, otherwise, labels);
  }

  @Override
  public void visitLookupSwitchInsn(Label otherwise, int[] keys, Label[] labels) {
    instruction();
    super.visitLookupSwitchInsn(otherwise, keys, labels);
  }

  @Override
  public void visitMultiANewArrayInsn(String descriptor, int dimensions) {
    instruction();
    super.visitMultiANewArrayInsn(descriptor, dimensions);
  }
}

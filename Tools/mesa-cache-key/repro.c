// Mesa's llvmpipe shader cache is not keyed by the vector width (Mesa 22.3): code compiled at
// 256 bits and stored on disk is loaded by a process running at 128 bits. This program draws
// instanced quads with a vertex shader of 41 output floats (164 bytes a vertex, as Tessera's
// symbol program); run it once at 256 bits to fill a cache folder, then at 128 bits on the same
// folder, and the 128-bit process writes 8 vertices' outputs into a buffer sized for 4 and
// corrupts its heap (glibc aborts). With a folder of its own the 128-bit run draws the same
// pixels as the 256-bit one. See run.sh.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <stdio.h>
#include <stdlib.h>

static const char *vertexSource =
  "#version 300 es\n"
  "in vec2 a_corner;\n"
  "out vec4 v0; out vec4 v1; out vec4 v2; out vec4 v3; out vec4 v4;\n"
  "out vec4 v5; out vec4 v6; out vec4 v7; out vec4 v8; out vec4 v9; out float v10;\n"
  "void main() {\n"
  "  float i = float(gl_InstanceID);\n"
  "  v0 = vec4(a_corner, i, 1.0); v1 = v0 * 0.5; v2 = v0 * 0.25; v3 = v0.yxzw; v4 = v0 + 0.1;\n"
  "  v5 = v1 + v2; v6 = v3 * v4; v7 = v5 - v6; v8 = abs(v7); v9 = v8 * v8; v10 = a_corner.x;\n"
  "  gl_Position = vec4(a_corner * 0.05 + vec2(mod(i, 16.0), floor(i / 16.0)) * 0.12 - 0.95, 0.0, 1.0);\n"
  "}\n";

static const char *fragmentSource =
  "#version 300 es\n"
  "precision mediump float;\n"
  "in vec4 v0; in vec4 v1; in vec4 v2; in vec4 v3; in vec4 v4;\n"
  "in vec4 v5; in vec4 v6; in vec4 v7; in vec4 v8; in vec4 v9; in float v10;\n"
  "out vec4 color;\n"
  "void main() {\n"
  "  vec4 sum = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9;\n"
  "  color = vec4(fract(sum.xyz * 0.1), v10);\n"
  "}\n";

static GLuint compile(GLenum kind, const char *source) {
  GLuint shader = glCreateShader(kind);
  glShaderSource(shader, 1, &source, NULL);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024];
    glGetShaderInfoLog(shader, sizeof log, NULL, log);
    fprintf(stderr, "shader: %s\n", log);
    exit(2);
  }
  return shader;
}

int main(void) {
  PFNEGLGETPLATFORMDISPLAYEXTPROC getDisplay =
    (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
  EGLDisplay display = getDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
  if (!eglInitialize(display, NULL, NULL)) return 2;
  eglBindAPI(EGL_OPENGL_ES_API);
  const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
  EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, contextAttributes);
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) return 2;
  printf("%s\n", glGetString(GL_RENDERER));

  GLuint framebuffer, renderbuffer;
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glGenRenderbuffers(1, &renderbuffer);
  glBindRenderbuffer(GL_RENDERBUFFER, renderbuffer);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 128, 128);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, renderbuffer);
  glViewport(0, 0, 128, 128);

  GLuint program = glCreateProgram();
  glAttachShader(program, compile(GL_VERTEX_SHADER, vertexSource));
  glAttachShader(program, compile(GL_FRAGMENT_SHADER, fragmentSource));
  glBindAttribLocation(program, 0, "a_corner");
  glLinkProgram(program);
  glUseProgram(program);
  const float corners[] = {0, 0, 1, 0, 0, 1, 1, 1};
  GLuint buffer;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);

  unsigned long long checksum = 0;
  for (int frame = 0; frame < 20; frame++) {
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, 256);
    static unsigned char pixels[128 * 128 * 4];
    glReadPixels(0, 0, 128, 128, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    for (int i = 0; i < (int)sizeof pixels; i++) checksum = checksum * 31 + pixels[i];
  }
  printf("checksum %llx\n", checksum);
  eglTerminate(display);
  return 0;
}

{{%AUTOESCAPE context="HTML"}}<h1>{{T_REGISTER_TITLE}}</h1>
{{#ERROR}}<div class="notice warn" role="alert" id="form-error">{{ERROR_TEXT}}</div>{{/ERROR}}
<form method="post" action="/register" class="narrow">
<input type="hidden" name="csrf" value="{{CSRF}}">
<label for="name">{{T_REGISTER_NAME}}</label>
<input type="text" id="name" name="name" autocomplete="name" required maxlength="100" value="{{NAME}}">
<label for="email">{{T_REGISTER_EMAIL}}</label>
<input type="email" id="email" name="email" autocomplete="email" required maxlength="254" value="{{EMAIL}}">
<label for="password">{{T_REGISTER_PASSWORD}}</label>
<input type="password" id="password" name="password" autocomplete="new-password" required minlength="8">
<button type="submit">{{T_REGISTER_SUBMIT}}</button>
</form>
<p>{{T_REGISTER_HAVE_ACCOUNT}} <a href="/login">{{T_NAV_LOGIN}}</a></p>

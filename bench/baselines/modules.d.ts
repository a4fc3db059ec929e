declare module 'facebook-nodejs-business-sdk';
